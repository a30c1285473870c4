import { formatBRL, type SkipReason } from '@carteiro/shared';
import { sql } from 'drizzle-orm';
import { asDb, queryRows } from '../../db/database';
import { appendLedgerEntry } from '../billing/ledger';
import { campaignOutcomeCtes } from '../campaigns/campaign-counters';
import { ineligibilityReasonSql } from '../contacts/recipient-eligibility';
import type { SigningResolver } from '../sender-identities/sender-signing';
import {
  deliveryOutcome,
  type Outcome,
  type RecordOptions,
  recordBatchOutcomes,
  skippedOutcome,
} from '../sending/batch-outcomes';
import { linkBaseUrl, messageLinks, verpAddress } from '../sending/build-message';
import type { ClaimSource, WorkerContext } from '../sending/delivery-worker';
import type { DkimSigner } from '../sending/dkim/dkim-signer';
import { claimDueBatchesCtes } from '../sending/message-queue';
import type { MessageFrame, MimeAttachment } from '../sending/mime/build-message';
import type { WireMessage } from '../sending/transport';
import { buildWireMessage, wireFrame } from '../sending/wire-message';
import { ensureCampaignLinks } from '../tracking/campaign-links';
import { addOpenPixel, extractTrackableUrls, rewriteLinksForTracking } from '../tracking/rewrite-links';

export const TRANSACTIONAL_RECHECK_MS = 200;

/** Engine batches (message_batches rows) one claim takes: single sends are one-message batches. */
export const TRANSACTIONAL_CLAIM_BATCHES = 50;

/** The engine's outcome statement's part for a transactional batch. */
const recordOptions = (batch: { campaignId: string }, anySent: boolean): RecordOptions => ({
  // The stream's hidden campaign keeps its counters like any campaign (the same statement as before).
  sourceCtes: campaignOutcomeCtes(batch.campaignId, anySent),
});

/** What the lanes borrow from the delivery worker (its relays, settings, leases and identity), and the signers. */
// No clock: a transactional batch is due by the database's now() (next_attempt_at <= now() in its claim).
export type TransactionalEngine = Omit<WorkerContext, 'isStopped' | 'clock'> & {
  signers: DkimSigner[];
  /** Per From domain signing and bounce domain (ADR 0012); without it, the platform's signers. */
  signingFor?: SigningResolver;
};

interface ClaimedRow {
  batch_id: number | string;
  campaign_id: string;
  first_id: number | string;
  last_id: number | string;
  id: number | string | null;
  account_id: string;
  email: string;
  token: string;
  attempts: number | string;
  created_ms: number | string;
  skip_reason: SkipReason | null;
  from_email: string | null;
  from_name: string | null;
  reply_to: string | null;
  to_name: string | null;
  category: 'transactional' | 'marketing' | null;
  track_opens: boolean;
  track_clicks: boolean;
  subject: string;
  html: string;
  text: string;
  cost_millis: number | string | null;
  copy_of: number | string | null;
  header_to: { email: string; name: string | null } | string | null;
  cc: { email: string; name: string | null }[] | string | null;
  headers: [string, string][] | string | null;
  attachment_count: number | string | null;
}

/** jsonb comes back parsed from PostgreSQL and as text from some drivers. */
const parsed = <T>(value: T | string | null): T | null =>
  typeof value === 'string' ? (JSON.parse(value) as T) : value;

interface ClaimedMessage {
  id: number;
  accountId: string;
  campaignId: string;
  email: string;
  token: string;
  attempts: number;
  created_ms: number;
  skipReason: SkipReason | null;
  content: {
    fromEmail: string;
    fromName: string | null;
    replyTo: string | null;
    toName: string | null;
    category: 'transactional' | 'marketing';
    trackOpens: boolean;
    trackClicks: boolean;
    subject: string;
    html: string;
    text: string;
    costMillis: number;
    /** Copies (cc/bcc): the message's `to` mailbox for the To header; null for the `to` row. */
    headerTo: { email: string; name: string | null } | null;
    cc: { email: string; name: string | null }[];
    headers: [string, string][];
    /** The message whose files this row carries (its own id, or the `to` row's for a copy); null: no files. */
    filesOf: number | null;
  } | null;
}

interface ClaimedBatch {
  id: number;
  campaignId: string;
  firstMessageId: number;
  lastMessageId: number;
  messages: ClaimedMessage[];
}

/**
 * The transactional claim source of the delivery worker (ADR 0018, 0036): the worker's lanes ask it in every
 * round, after the campaign batches, with the same relays, rate limiters, DKIM signers, lease and retry settings:
 * claim → skip addresses suppressed since the request → track (click redirect + open pixel, the campaign
 * token scheme) → MIME (no List-Unsubscribe unless marketing) → DKIM → SMTP pool → record.
 * - Claim: the oldest due queued batches of transactional streams (FOR UPDATE SKIP LOCKED, status sending,
 *   claimed_by/claimed_at = the lease), with their due queued messages and content, in one statement. The
 *   campaign lanes never see these batches (they claim per campaign in status sending; a stream never is).
 * - Record: per batch, the engine's recordBatchOutcomes; in the same transaction, messages that ended failed or
 *   skipped are refunded on the ledger (they were charged when accepted). Exactly once: nothing is written
 *   (no outcome, no refund) for a batch whose lease this worker lost.
 * - Crash safety is the engine's: a worker that dies leaves its batches in status sending; the manager's lease
 *   sweep re-queues them and their still-queued messages are delivered again, once.
 */
export class TransactionalLanes implements ClaimSource {
  /**
   * After an empty claim the worker looks again only this much later (across ticks), so a big campaign or an idle
   * worker pays about one query per interval, and a transactional message waits at most that long (plus the poll)
   * before a lane takes it.
   */
  readonly idleRecheckMs = TRANSACTIONAL_RECHECK_MS;

  constructor(private readonly engine: TransactionalEngine) {}

  /** One claim of transactional batches, delivered through `relay` and recorded. Returns the messages processed. */
  async sendBatch(relay = 0): Promise<number> {
    const batches = await this.claim();
    if (batches.length === 0) return 0;
    return this.engine.leases.during(
      batches.map((b) => b.id),
      () => this.process(batches, relay),
    );
  }

  /** Build → deliver → record of the claimed batches, their leases held. */
  private async process(batches: ClaimedBatch[], relay: number): Promise<number> {
    const all = batches.flatMap((b) => b.messages);
    const outcomes = new Map<number, Outcome>();
    const linkIds = await this.linkIds(all);
    const files = await this.files(all);
    const wire: WireMessage[] = [];
    const frames = new Map<string, MessageFrame>();
    for (const message of all) {
      if (message.skipReason || !message.content) {
        outcomes.set(message.id, skippedOutcome(message.id, message.skipReason ?? 'suppressed'));
        continue;
      }
      try {
        wire.push(await this.build(message, message.content, linkIds.get(message.campaignId), frames, files));
      } catch (error) {
        outcomes.set(message.id, final(message.id, 'failed', `erro ao montar a mensagem: ${(error as Error).message}`));
      }
    }
    const delivered = await this.engine.deliver(relay, wire);
    const byId = new Map(all.map((m) => [String(m.id), m]));
    for (const outcome of delivered) {
      const message = byId.get(outcome.id);
      if (message) outcomes.set(message.id, deliveryOutcome(this.engine.settings, message, outcome));
    }
    await this.record(batches, outcomes);
    return Math.max(all.length, 1);
  }

  private async claim(): Promise<ClaimedBatch[]> {
    const { workerId } = this.engine;
    const rows = await queryRows<ClaimedRow>(
      this.engine.db,
      sql`with ${claimDueBatchesCtes({
        workerId,
        limit: TRANSACTIONAL_CLAIM_BATCHES,
        streamFilter: sql`exists (select 1 from campaigns c where c.id = b.campaign_id and c.kind = 'transactional')`,
      })}
          select batch.id as batch_id, batch.campaign_id, batch.first_message_id as first_id,
                 batch.last_message_id as last_id,
                 m.id, m.account_id, m.email, m.token, m.attempts,
                 (extract(epoch from m.created_at) * 1000)::float8 as created_ms,
                 ${ineligibilityReasonSql({
                   accountId: sql`m.account_id`,
                   email: sql`m.email`,
                   contact: null,
                   stream: sql`coalesce(t.category, 'transactional')`,
                 })} as skip_reason,
                 t.from_email, t.from_name, t.reply_to, t.to_name, t.category, t.track_opens, t.track_clicks,
                 t.subject, t.html, t.text, t.cost_millis, t.copy_of, t.header_to, t.cc, t.headers,
                 (select f.attachment_count from transactional_messages f
                   where f.message_id = coalesce(t.copy_of, t.message_id)) as attachment_count
            from batch
            left join lateral (
                 select m.id, m.account_id, m.email, m.token, m.attempts, m.created_at
                   from messages m
                  where m.id between batch.first_message_id and batch.last_message_id
                    and m.campaign_id = batch.campaign_id
                    and m.status = 'queued' and m.next_attempt_at <= now()) m on true
            left join transactional_messages t on t.message_id = m.id
           order by batch.id, m.id`,
    );
    const batches = new Map<number, ClaimedBatch>();
    for (const row of rows) {
      const batchId = Number(row.batch_id);
      let batch = batches.get(batchId);
      if (!batch) {
        batch = {
          id: batchId,
          campaignId: row.campaign_id,
          firstMessageId: Number(row.first_id),
          lastMessageId: Number(row.last_id),
          messages: [],
        };
        batches.set(batchId, batch);
      }
      if (row.id === null) continue;
      batch.messages.push({
        id: Number(row.id),
        accountId: row.account_id,
        campaignId: row.campaign_id,
        email: row.email,
        token: row.token,
        attempts: Number(row.attempts),
        created_ms: Number(row.created_ms),
        skipReason: row.skip_reason,
        content:
          row.from_email === null || row.category === null
            ? null
            : {
                fromEmail: row.from_email,
                fromName: row.from_name,
                replyTo: row.reply_to,
                toName: row.to_name,
                category: row.category,
                trackOpens: row.track_opens,
                trackClicks: row.track_clicks,
                subject: row.subject,
                html: row.html,
                text: row.text,
                costMillis: Number(row.cost_millis ?? 0),
                headerTo: parsed(row.header_to),
                cc: parsed(row.cc) ?? [],
                headers: parsed(row.headers) ?? [],
                filesOf: Number(row.attachment_count ?? 0) > 0 ? Number(row.copy_of ?? row.id) : null,
              },
      });
    }
    return [...batches.values()];
  }

  /** The files of the claimed messages (one statement; none when no message has any), by the message they are under. */
  private async files(all: ClaimedMessage[]): Promise<Map<number, MimeAttachment[]>> {
    const owners = [...new Set(all.flatMap((m) => (m.content?.filesOf && !m.skipReason ? [m.content.filesOf] : [])))];
    const result = new Map<number, MimeAttachment[]>();
    if (owners.length === 0) return result;
    const rows = await queryRows<{
      message_id: number | string;
      filename: string;
      content_type: string;
      content_id: string | null;
      content: Buffer | Uint8Array | null;
    }>(
      this.engine.db,
      // A file uploaded once (message-files) is read from its upload; erased meanwhile, it reads null.
      sql`select a.message_id, a.filename, a.content_type, a.content_id, coalesce(a.content, u.content) as content
            from transactional_attachments a left join message_files u on u.id = a.file_id
           where a.message_id = any(${`{${owners.join(',')}}`}::bigint[])
           order by a.message_id, a.position`,
    );
    const incomplete = new Set<number>();
    for (const row of rows) {
      const id = Number(row.message_id);
      if (row.content === null) incomplete.add(id);
      if (row.content === null || incomplete.has(id)) continue;
      const list = result.get(id) ?? [];
      const content = Buffer.isBuffer(row.content) ? row.content : Buffer.from(row.content);
      list.push({ filename: row.filename, contentType: row.content_type, contentId: row.content_id, content });
      result.set(id, list);
    }
    // A message missing a file has none here: it fails and is refunded, never sent without it (missingFiles).
    for (const id of incomplete) result.delete(id);
    return result;
  }

  /** The campaign_links ids of every trackable URL of the claimed messages: one statement per stream. */
  private async linkIds(all: ClaimedMessage[]): Promise<Map<string, ReadonlyMap<string, number>>> {
    const urlsByStream = new Map<string, Set<string>>();
    for (const message of all) {
      if (message.skipReason || !message.content?.trackClicks) continue;
      let urls = urlsByStream.get(message.campaignId);
      if (!urls) {
        urls = new Set();
        urlsByStream.set(message.campaignId, urls);
      }
      for (const url of extractTrackableUrls(message.content.html, this.engine.settings.publicUrl)) urls.add(url);
    }
    const result = new Map<string, ReadonlyMap<string, number>>();
    for (const [streamId, urls] of urlsByStream) {
      if (urls.size > 0) result.set(streamId, await ensureCampaignLinks(this.engine.db, streamId, [...urls]));
    }
    return result;
  }

  /** Tracking, MIME and DKIM of one message. */
  private async build(
    message: ClaimedMessage,
    content: NonNullable<ClaimedMessage['content']>,
    linkIds: ReadonlyMap<string, number> | undefined,
    frames: Map<string, MessageFrame>,
    files: ReadonlyMap<number, MimeAttachment[]>,
  ): Promise<WireMessage> {
    const { settings, signers } = this.engine;
    const publicUrl = settings.publicUrl;
    // Per From domain (ADR 0012): the verified sender domain's keys, bounce domain and tracking host, else the
    // platform's — one cached resolution per (account, domain), nothing per message.
    const signing = this.engine.signingFor
      ? await this.engine.signingFor(message.accountId, content.fromEmail)
      : { signers, bounceDomain: settings.bounceDomain, trackingHost: null };
    const base = linkBaseUrl(publicUrl, signing.trackingHost);
    // The body was rendered at request time with PUBLIC_URL's unsubscribe and "ver no navegador" links (this
    // message's own token in them): they move to the tracking host with the rest, before the click rewrite, which
    // leaves the engine's own links alone.
    const own = messageLinks(publicUrl, message.campaignId, message.token);
    const moved = base === publicUrl ? null : messageLinks(base, message.campaignId, message.token);
    const relink = (body: string) =>
      moved
        ? body.replaceAll(own.unsubscribeUrl, moved.unsubscribeUrl).replaceAll(own.browserUrl, moved.browserUrl)
        : body;
    let html = relink(content.html);
    if (content.trackClicks && linkIds) {
      html = rewriteLinksForTracking(html, { publicUrl: base, messageToken: message.token, linkIds });
    }
    if (content.trackOpens) html = addOpenPixel(html, { publicUrl: base, messageToken: message.token });
    const marketing = content.category === 'marketing';
    const unsubscribeUrl = marketing ? messageLinks(base, message.campaignId, message.token).unsubscribeUrl : null;
    // One MIME builder on every path (ADR 0011): an http PUBLIC_URL only relaxes List-Unsubscribe's https rule.
    const key = [message.campaignId, content.fromEmail, content.fromName, content.replyTo, content.category].join('\n');
    let frame = frames.get(key);
    if (!frame) {
      frame = wireFrame({
        stream: content.category,
        fromEmail: content.fromEmail,
        fromName: content.fromName,
        replyTo: content.replyTo,
        sourceId: message.campaignId,
        accountId: message.accountId,
        listIdDomain: settings.listIdDomain,
        publicUrl,
        feedbackType: content.category,
      });
      frames.set(key, frame);
    }
    const raw = buildWireMessage(
      frame,
      {
        messageId: message.token,
        // A cc/bcc copy shows the message's To (and Cc) like the `to` row; its envelope is its own address.
        to: content.headerTo?.email ?? message.email,
        toName: content.headerTo ? content.headerTo.name : content.toName,
        subject: content.subject,
        unsubscribeUrl,
        text: relink(content.text),
        html,
        cc: content.cc,
        headers: content.headers,
        attachments: content.filesOf === null ? undefined : (files.get(content.filesOf) ?? missingFiles(message.id)),
      },
      signing.signers,
    );
    return {
      id: String(message.id),
      envelopeFrom: verpAddress(message.token, signing.bounceDomain),
      recipient: message.email,
      raw,
    };
  }

  /** Each batch's outcomes (the engine's statement) and the refund of what ended failed or skipped, atomically. */
  private async record(batches: ClaimedBatch[], outcomes: Map<number, Outcome>): Promise<void> {
    const { db, workerId } = this.engine;
    for (const batch of batches) {
      const list = batch.messages.map((m) => outcomes.get(m.id)).filter((o): o is Outcome => o !== undefined);
      const anySent = list.some((o) => o.status === 'sent');
      const refunds = new Map<string, { millis: number; count: number }>();
      for (const message of batch.messages) {
        const status = outcomes.get(message.id)?.status;
        if (status !== 'failed' && status !== 'skipped') continue;
        const cost = message.content?.costMillis ?? 0;
        if (cost <= 0) continue;
        const entry = refunds.get(message.accountId) ?? { millis: 0, count: 0 };
        entry.millis += cost;
        entry.count += 1;
        refunds.set(message.accountId, entry);
      }
      if (refunds.size === 0) {
        await recordBatchOutcomes(db, workerId, batch.campaignId, batch, list, recordOptions(batch, anySent));
        continue;
      }
      await db.transaction(async (tx) => {
        const t = asDb(tx);
        const held = await recordBatchOutcomes(
          t,
          workerId,
          batch.campaignId,
          batch,
          list,
          recordOptions(batch, anySent),
        );
        if (!held) return;
        for (const [accountId, refund] of refunds) {
          const entry = await appendLedgerEntry(t, {
            accountId,
            amountMillis: refund.millis,
            kind: 'refund',
            emailCount: refund.count,
            description: `Estorno de envio transacional: ${refund.count} ${refund.count === 1 ? 'e-mail não entregue' : 'e-mails não entregues'} (${formatBRL(refund.millis)})`,
          });
          if (!entry) throw new Error('refund could not be applied');
        }
      });
      this.engine.logger.info({ batchId: batch.id, refunds: [...refunds.values()] }, 'transactional: refunded');
    }
  }
}

/** A message whose files are gone is never sent without them (the build fails and the message is refunded). */
function missingFiles(id: number): never {
  throw new Error(`os anexos da mensagem ${id} não foram encontrados`);
}

function final(id: number, status: 'failed', response: string): Outcome {
  return { id, status, nextAttemptAt: null, code: null, enhancedCode: null, response, policy: false };
}
