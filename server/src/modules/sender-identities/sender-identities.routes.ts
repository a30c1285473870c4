import {
  senderAddressConfirmSchema,
  senderAddressCreateSchema,
  senderDomainCreateSchema,
  senderDomainSuspendSchema,
} from '@carteiro/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { type Clock, systemClock } from '../../clock';
import type { Db } from '../../db/database';
import { AppError } from '../../http/app-error';
import { idParam } from '../../http/id-param';
import { parseInput } from '../../http/validate';
import type { Mailer } from '../../mail/mailer';
import type { DnsResolver } from '../../net/dns';
import { requireActor, requireOperator, requireRole } from '../auth/request-actor';
import type { MayCauseMail } from '../mail-policy/assert-may-cause-mail';
import { hitRateLimit } from '../rate-limits/rate-limit';
import { checkSenderDomain } from './domain-checks';
import { listDomainsForOperator, setDomainSuspended } from './operator-domains';
import { addSenderAddress, confirmSenderAddress, deleteSenderAddress } from './sender-addresses';
import { addSenderDomain, deleteSenderDomain, findSenderDomain, listSenders } from './sender-domains';
import { isVerifiedTrackingHost, type SenderIdentitySettings, senderAlignment } from './sender-identities';

const alignmentQuery = z.object({ fromEmail: z.string().max(320).optional() });
const tlsAskQuery = z.object({ domain: z.string().min(1).max(253) });

/** The on-demand TLS ask from a non-loopback address (a proxy in another container): this many a minute per IP. */
const TLS_ASK_PER_MINUTE = 300;
const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/** Settings → Remetentes e domínios, the address confirmation link, and the operator's domain list. */
export async function senderIdentitiesRoutes(
  app: FastifyInstance,
  opts: {
    db: Db;
    mailer: Mailer;
    dns: DnsResolver;
    settings: SenderIdentitySettings;
    mayCauseMail: MayCauseMail;
    /** The clock of its time decisions: links' lifetimes, the one-a-minute re-send, the rate-limit window. */
    clock?: Clock;
  },
): Promise<void> {
  const { db, mailer, dns, settings, mayCauseMail, clock = systemClock } = opts;

  app.get('/api/senders', async (request) => {
    const actor = await requireActor(request);
    return listSenders(db, settings, actor.accountId);
  });
  app.get('/api/senders/alignment', async (request) => {
    const actor = await requireActor(request);
    const { fromEmail } = parseInput(alignmentQuery, request.query ?? {});
    return senderAlignment(db, actor.accountId, fromEmail?.trim().toLowerCase() || null);
  });

  app.post('/api/sender-addresses', async (request, reply) => {
    const actor = await requireActor(request);
    requireRole(actor, ['owner', 'admin']);
    const { email } = parseInput(senderAddressCreateSchema, request.body);
    // One's own verified login e-mail is confirmed without a mail, so it takes nothing from the mail quota.
    const ownVerified = actor.emailVerified && actor.email.trim().toLowerCase() === email ? actor.email : null;
    if (!ownVerified) {
      await mayCauseMail(db, actor, { kind: 'sender-confirmation', from: null, recipients: [email] });
    }
    return reply
      .status(201)
      .send(await addSenderAddress(db, mailer, settings, actor.accountId, email, ownVerified, clock()));
  });
  app.delete('/api/sender-addresses/:id', async (request, reply) => {
    const actor = await requireActor(request);
    requireRole(actor, ['owner', 'admin']);
    await deleteSenderAddress(db, actor.accountId, idParam(request.params, 'sender'));
    return reply.status(204).send();
  });
  // The link in the confirmation e-mail: whoever reads that mailbox confirms, signed in or not.
  app.post('/api/sender-addresses/confirm', async (request) => {
    const { token } = parseInput(senderAddressConfirmSchema, request.body);
    return confirmSenderAddress(db, token, clock());
  });

  app.post('/api/sender-domains', async (request, reply) => {
    const actor = await requireActor(request);
    requireRole(actor, ['owner', 'admin']);
    const { domain } = parseInput(senderDomainCreateSchema, request.body);
    return reply.status(201).send(await addSenderDomain(db, settings, actor.accountId, domain));
  });
  app.get('/api/sender-domains/:id', async (request) => {
    const actor = await requireActor(request);
    return findSenderDomain(db, settings, actor.accountId, idParam(request.params, 'domain'));
  });
  app.post('/api/sender-domains/:id/check', async (request) => {
    const actor = await requireActor(request);
    const id = idParam(request.params, 'domain');
    try {
      return (await checkSenderDomain(db, dns, settings, actor.accountId, id)).domain;
    } catch (error) {
      if (error instanceof AppError) throw error;
      // A resolver failure (timeout, SERVFAIL), not "record missing": its cause logged here, 503 to the user.
      request.log.warn({ err: error }, 'sender domain DNS check failed');
      throw new AppError(
        'service_unavailable',
        'Não foi possível consultar o DNS agora. Tente de novo em alguns minutos.',
      );
    }
  });
  app.delete('/api/sender-domains/:id', async (request, reply) => {
    const actor = await requireActor(request);
    requireRole(actor, ['owner', 'admin']);
    await deleteSenderDomain(db, actor.accountId, idParam(request.params, 'domain'));
    return reply.status(204).send();
  });

  // The reverse proxy's on-demand TLS "ask" (Caddy `on_demand_tls { ask … }`, docs/deploy.md): 200 only for the
  // tracking host of a verified, not suspended sender domain whose CNAME was found; 404 otherwise. The answer
  // says nothing about the account (the CNAME is public DNS anyway). Public but rate-limited per IP, loopback
  // exempt (ADR 0012 "Tracking domains"). Not answered on a tracking host (tracking/tracking-host.ts).
  app.get('/internal/tls-ask', async (request, reply) => {
    const { domain } = parseInput(tlsAskQuery, request.query ?? {});
    if (
      !LOOPBACK.has(request.ip) &&
      !(await hitRateLimit(db, `tls-ask:${request.ip}`, TLS_ASK_PER_MINUTE, 60, clock()))
    ) {
      throw new AppError('too_many_requests');
    }
    reply.header('cache-control', 'no-store');
    if (settings.trackingDomains === false || !(await isVerifiedTrackingHost(db, domain))) {
      throw new AppError('not_found');
    }
    return reply.type('text/plain; charset=utf-8').send('ok');
  });

  // Back office.
  app.get('/api/admin/sender-domains', async (request) => {
    await requireOperator(request);
    return { items: await listDomainsForOperator(db) };
  });
  app.post('/api/admin/sender-domains/:id/suspend', async (request) => {
    const operator = await requireOperator(request);
    const { reason } = parseInput(senderDomainSuspendSchema, request.body);
    await setDomainSuspended(db, operator, idParam(request.params, 'domain'), { reason });
    return { ok: true };
  });
  app.post('/api/admin/sender-domains/:id/unsuspend', async (request) => {
    const operator = await requireOperator(request);
    await setDomainSuspended(db, operator, idParam(request.params, 'domain'), null);
    return { ok: true };
  });
}
