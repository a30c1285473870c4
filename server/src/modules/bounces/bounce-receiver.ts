import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import type { Logger } from 'pino';
import { SMTPServer } from 'smtp-server';
import type { Db } from '../../db/database';
import { findMessageByToken } from '../sending/find-message';
import { classifyInbound } from './dsn';
import { type ReportOutcome, type ReportSettings, recordDeliveryReport } from './record-report';

const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;
const VERP = /^b\+([A-Za-z0-9_-]{16,128})@/i;

export interface BounceReceiver {
  port: number;
  close(): Promise<void>;
}

/** What the receiver did with one inbound message (for logs and tests). */
export type InboundOutcome =
  | ReportOutcome
  | { recorded: false; reason: 'auto-reply' | 'not-a-report' | 'delivered' | 'no_token' };

/** The VERP token of an address b+<token>@…, or null. */
export function verpToken(address: string): string | null {
  return VERP.exec(address.trim())?.[1] ?? null;
}

/**
 * Handles one inbound message to the bounce domain: parse (mailparser), classify (DSN / ARF / ignore),
 * find the message by the VERP token of the recipient address — or, for reports sent elsewhere (feedback
 * loops), by a token the embedded original names, provided it is a real message — and record it.
 */
export async function handleInboundReport(
  db: Db,
  raw: Buffer,
  envelopeTo: string[],
  settings: ReportSettings,
  logger?: Logger,
): Promise<InboundOutcome> {
  const mail = await simpleParser(raw, { skipHtmlToText: true, skipTextToHtml: true, skipImageLinks: true });
  const report = classifyInbound(mail, raw.toString('utf8'));
  if (report.type === 'ignored') return { recorded: false, reason: report.reason };
  let token = envelopeTo.map(verpToken).find((t): t is string => t !== null) ?? null;
  if (!token) {
    for (const candidate of report.referencedTokens) {
      if (await findMessageByToken(db, candidate)) {
        token = candidate;
        break;
      }
    }
  }
  if (!token) return { recorded: false, reason: 'no_token' };
  return recordDeliveryReport(
    db,
    token,
    report.type === 'bounce'
      ? {
          type: 'bounce',
          bounceKind: report.bounceKind,
          status: report.status,
          diagnostic: report.diagnostic,
          source: 'dsn',
        }
      : { type: 'complaint', feedbackType: report.feedbackType, source: 'arf' },
    settings,
    logger,
  );
}

/**
 * The inbound bounce receiver: an SMTP server (no AUTH, no relaying) that accepts mail only for VERP
 * addresses b+<token>@… (any other recipient gets 550) and for `abuse@`/`fbl@` (feedback loops), and hands
 * each message to handleInboundReport. A forged or unknown token is accepted and dropped (no oracle).
 */
export async function startBounceReceiver(options: {
  db: Db;
  port: number;
  host?: string;
  logger: Logger;
  settings: ReportSettings;
  onHandled?: (outcome: InboundOutcome) => void;
}): Promise<BounceReceiver> {
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    size: MAX_MESSAGE_BYTES,
    logger: false,
    banner: 'Carteiro bounces',
    onRcptTo(address, _session, callback) {
      const local = address.address.split('@')[0]?.toLowerCase() ?? '';
      if (verpToken(address.address) || local === 'abuse' || local === 'fbl' || local === 'postmaster')
        return callback();
      const error = new Error('Caixa postal inexistente') as Error & { responseCode: number };
      error.responseCode = 550;
      return callback(error);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('error', callback);
      stream.on('end', () => {
        const raw = Buffer.concat(chunks);
        const to = session.envelope.rcptTo.map((r) => r.address);
        handleInboundReport(options.db, raw, to, options.settings, options.logger).then(
          (outcome) => {
            options.logger.info({ outcome, to }, 'bounce receiver: message handled');
            options.onHandled?.(outcome);
            callback();
          },
          (error: Error) => {
            options.logger.error({ err: error }, 'bounce receiver: could not handle a message');
            // 451: the sending MTA retries later.
            const reply = new Error('Falha temporária, tente mais tarde') as Error & { responseCode: number };
            reply.responseCode = 451;
            callback(reply);
          },
        );
      });
    },
  });
  server.on('error', (error) => options.logger.error({ err: error }, 'bounce receiver error'));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.server.address() as AddressInfo).port;
  options.logger.info({ port }, 'bounce receiver listening');
  return { port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
