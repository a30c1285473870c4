import { sql } from 'drizzle-orm';
import type { FastifyPluginAsync } from 'fastify';
import type { Db } from '../../db/database';
import { findMessageByToken } from '../sending/find-message';
import { verpToken } from './bounce-receiver';
import { classifyStatus, referencedTokens } from './dsn';
import { type ReportSettings, recordDeliveryReport } from './record-report';
import { isSnsMessage, isSnsUrl, type SnsVerifier, topicRegion } from './sns';

/** Fetches the SubscribeURL to confirm an SNS subscription (injected; tests never touch the network). */
export type SubscriptionConfirmer = (url: string) => Promise<void>;

export const httpsSubscriptionConfirmer: SubscriptionConfirmer = async (url) => {
  const response = await fetch(url, { redirect: 'error', signal: AbortSignal.timeout(5_000) });
  if (!response.ok) throw new Error(`SubscribeURL answered ${response.status}`);
};

interface SesMail {
  source?: string;
  messageId?: string;
  headers?: Array<{ name: string; value: string }>;
}
interface SesNotification {
  notificationType?: string;
  eventType?: string;
  mail?: SesMail;
  bounce?: {
    bounceType?: string;
    bounceSubType?: string;
    bouncedRecipients?: Array<{ emailAddress?: string; status?: string; diagnosticCode?: string; action?: string }>;
  };
  complaint?: { complaintFeedbackType?: string; complaintSubType?: string | null };
}

/** Our message token from the SES mail object: the VERP source, else the Message-ID / List-Unsubscribe headers. */
async function tokenOf(db: Db, mail: SesMail | undefined): Promise<string | null> {
  if (!mail) return null;
  const fromSource = mail.source ? verpToken(mail.source) : null;
  if (fromSource) return fromSource;
  const headerText = (mail.headers ?? []).map((h) => `${h.name}: ${h.value}`).join('\n');
  for (const candidate of referencedTokens(headerText)) {
    if (await findMessageByToken(db, candidate)) return candidate;
  }
  return null;
}

/**
 * Amazon SES bounce and complaint notifications over SNS (`POST /api/webhooks/ses`, CSRF off: the SNS
 * signature is the authentication). Unsigned, tampered or foreign-certificate messages → 403. A
 * SubscriptionConfirmation is recorded and confirmed by fetching its SubscribeURL — only an AWS SNS URL of the
 * topic's region, and only for an allowed topic. Bounce → hard/soft/policy like a DSN, Complaint → complaint.
 */
export const sesWebhookRoutes: FastifyPluginAsync<{
  db: Db;
  verifier: SnsVerifier;
  confirm: SubscriptionConfirmer;
  settings: ReportSettings;
  /** Allowed topic ARNs; empty = any (signature still verified). */
  topicArns: string[];
}> = async (app, { db, verifier, confirm, settings, topicArns }) => {
  app.post('/api/webhooks/ses', { config: { csrf: false } }, async (request, reply) => {
    let body: unknown = request.body;
    if (typeof body === 'string') {
      try {
        body = JSON.parse(body);
      } catch {
        return reply.code(400).send({ error: { code: 'bad_request', message: 'Mensagem SNS inválida.' } });
      }
    }
    if (!isSnsMessage(body))
      return reply.code(400).send({ error: { code: 'bad_request', message: 'Mensagem SNS inválida.' } });
    const verdict = await verifier.verify(body);
    if (!verdict.ok) {
      request.log.warn({ reason: verdict.reason, topic: body.TopicArn }, 'ses webhook: signature rejected');
      return reply.code(403).send({ error: { code: 'forbidden', message: 'Assinatura SNS inválida.' } });
    }
    if (topicArns.length > 0 && !topicArns.includes(body.TopicArn)) {
      request.log.warn({ topic: body.TopicArn }, 'ses webhook: topic not allowed');
      return reply.code(403).send({ error: { code: 'forbidden', message: 'Tópico SNS não autorizado.' } });
    }

    if (body.Type === 'SubscriptionConfirmation') {
      const url = body.SubscribeURL ?? '';
      const region = topicRegion(body.TopicArn) as string;
      await db.execute(
        sql`insert into sns_subscriptions (topic_arn, subscribe_url, status) values (${body.TopicArn}, ${url}, 'pending')
            on conflict (topic_arn) do update set subscribe_url = excluded.subscribe_url, status = 'pending', error = null`,
      );
      let status: 'confirmed' | 'failed' = 'failed';
      let error: string | null = 'SubscribeURL fora da AWS';
      if (isSnsUrl(url, region)) {
        try {
          await confirm(url);
          status = 'confirmed';
          error = null;
        } catch (e) {
          error = (e as Error).message.slice(0, 500);
        }
      }
      await db.execute(
        sql`update sns_subscriptions set status = ${status}, error = ${error},
            confirmed_at = ${status === 'confirmed' ? sql`now()` : sql`null`} where topic_arn = ${body.TopicArn}`,
      );
      return reply.code(200).send({ ok: true, subscription: status });
    }
    if (body.Type !== 'Notification') return reply.code(200).send({ ok: true });

    let notification: SesNotification;
    try {
      notification = JSON.parse(body.Message) as SesNotification;
    } catch {
      return reply.code(200).send({ ok: true, ignored: 'not json' });
    }
    const type = notification.notificationType ?? notification.eventType;
    const token = await tokenOf(db, notification.mail);
    if (!token || (type !== 'Bounce' && type !== 'Complaint')) return reply.code(200).send({ ok: true, ignored: true });

    if (type === 'Complaint') {
      const outcome = await recordDeliveryReport(
        db,
        token,
        { type: 'complaint', feedbackType: notification.complaint?.complaintFeedbackType ?? 'abuse', source: 'ses' },
        settings,
        request.log as never,
      );
      return reply.code(200).send({ ok: true, recorded: outcome.recorded });
    }
    const recipient = notification.bounce?.bouncedRecipients?.[0];
    const status = recipient?.status?.match(/\d\.\d{1,3}\.\d{1,3}/)?.[0] ?? null;
    const bounceType = notification.bounce?.bounceType;
    const bounceKind =
      status && classifyStatus(status) === 'policy' ? 'policy' : bounceType === 'Permanent' ? 'hard' : 'soft';
    const outcome = await recordDeliveryReport(
      db,
      token,
      {
        type: 'bounce',
        bounceKind,
        status,
        diagnostic: recipient?.diagnosticCode ?? notification.bounce?.bounceSubType ?? null,
        source: 'ses',
      },
      settings,
      request.log as never,
    );
    return reply.code(200).send({ ok: true, recorded: outcome.recorded });
  });
};
