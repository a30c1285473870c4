import type { ParsedMail } from 'mailparser';
import type { BounceKind } from '../tracking/message-events';

/** One per-recipient block of an RFC 3464 `message/delivery-status` part. */
export interface DsnRecipient {
  finalRecipient: string | null;
  action: string | null;
  status: string | null;
  diagnosticCode: string | null;
}

/** Parses the header-like blocks of a `message/delivery-status` body (RFC 3464 §2): per-message, then per-recipient. */
export function parseDeliveryStatus(text: string): { perMessage: Record<string, string>; recipients: DsnRecipient[] } {
  const blocks = text
    .replace(/\r\n/g, '\n')
    .split(/\n\s*\n/)
    .map((block) => parseFields(block))
    .filter((fields) => Object.keys(fields).length > 0);
  const [first, ...rest] = blocks;
  // Some MTAs omit the per-message block: a first block with Action/Status is a recipient.
  const perMessageIsRecipient = first && ('action' in first || 'status' in first);
  const recipientBlocks = perMessageIsRecipient ? blocks : rest;
  return {
    perMessage: perMessageIsRecipient ? {} : (first ?? {}),
    recipients: recipientBlocks.map((f) => ({
      finalRecipient: stripType(f['final-recipient'] ?? f['original-recipient'] ?? null),
      action: f.action?.toLowerCase() ?? null,
      status: f.status?.match(/\d\.\d{1,3}\.\d{1,3}/)?.[0] ?? null,
      diagnosticCode: f['diagnostic-code'] ?? null,
    })),
  };
}

/** `Name: value` fields with folded continuation lines, names lower-cased. */
export function parseFields(block: string): Record<string, string> {
  const fields: Record<string, string> = {};
  let last: string | null = null;
  for (const line of block.replace(/\r\n/g, '\n').split('\n')) {
    if (/^[ \t]/.test(line) && last) {
      fields[last] = `${fields[last] ?? ''} ${line.trim()}`;
      continue;
    }
    const match = /^([A-Za-z0-9-]+):\s*(.*)$/.exec(line);
    if (match) {
      last = (match[1] as string).toLowerCase();
      if (fields[last] === undefined) fields[last] = (match[2] as string).trim();
    } else last = null;
  }
  return fields;
}

function stripType(value: string | null): string | null {
  if (!value) return null;
  const i = value.indexOf(';');
  return (i === -1 ? value : value.slice(i + 1)).trim().replace(/^<|>$/g, '') || null;
}

/** RFC 3463 classes: 5.7.x policy (not a bad mailbox), other 5.x.x hard, 4.x.x soft. */
export function classifyStatus(status: string): BounceKind | null {
  if (/^5\.7\./.test(status)) return 'policy';
  if (/^5\./.test(status)) return 'hard';
  if (/^4\./.test(status)) return 'soft';
  return null;
}

export function classifyRecipient(recipient: DsnRecipient): BounceKind | null {
  const action = recipient.action ?? 'failed';
  if (action === 'delivered' || action === 'relayed' || action === 'expanded') return null;
  const status = recipient.status ?? recipient.diagnosticCode?.match(/\b[245]\.\d{1,3}\.\d{1,3}\b/)?.[0] ?? null;
  if (action === 'delayed') return status && /^5\.7\./.test(status) ? 'policy' : 'soft';
  if (!status) return 'hard';
  return classifyStatus(status);
}

export type InboundReport =
  | {
      type: 'bounce';
      bounceKind: BounceKind;
      status: string | null;
      diagnostic: string | null;
      recipient: string | null;
      /** Tokens named inside the report (the original message's Message-ID, Return-Path, unsubscribe URL). */
      referencedTokens: string[];
    }
  | { type: 'complaint'; feedbackType: string; recipient: string | null; referencedTokens: string[] }
  | { type: 'ignored'; reason: 'auto-reply' | 'not-a-report' | 'delivered' };

function header(mail: ParsedMail, name: string): string {
  const value = mail.headers.get(name);
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'object' && 'value' in (value as object)) return String((value as { value: unknown }).value);
  return String(value);
}

function contentTypeParams(mail: ParsedMail): { value: string; params: Record<string, string> } {
  const value = mail.headers.get('content-type') as { value?: string; params?: Record<string, string> } | undefined;
  return { value: (value?.value ?? '').toLowerCase(), params: value?.params ?? {} };
}

function partText(mail: ParsedMail, types: string[]): string | null {
  for (const attachment of mail.attachments ?? []) {
    if (types.includes(attachment.contentType.toLowerCase())) return attachment.content.toString('utf8');
  }
  return null;
}

/** The body of the first MIME part of that content type in the raw message (mailparser may inline it). */
function rawPart(raw: string, type: string): string {
  const match = new RegExp(
    `^Content-Type:\\s*${type}[^\\n]*\\r?\\n(?:[^\\r\\n]+\\r?\\n)*\\r?\\n([\\s\\S]*?)(?:\\r?\\n--|(?![\\s\\S]))`,
    'im',
  ).exec(raw);
  return match?.[1] ?? '';
}

/** Message tokens referenced by an embedded original message or its headers (DSN/ARF third part). */
export function referencedTokens(text: string): string[] {
  const tokens = new Set<string>();
  for (const m of text.matchAll(/\bb\+([A-Za-z0-9_-]{16,128})@/g)) tokens.add(m[1] as string);
  for (const m of text.matchAll(/^Message-ID:\s*<([A-Za-z0-9_-]{16,128})@/gim)) tokens.add(m[1] as string);
  for (const m of text.matchAll(/\/u\/([A-Za-z0-9_-]{16,128})\b/g)) tokens.add(m[1] as string);
  return [...tokens];
}

const OUT_OF_OFFICE =
  /out of (the )?office|fora do escrit[oó]rio|aus[eê]ncia|f[eé]rias|autoreply|auto-reply|resposta autom[aá]tica|automatic reply|abwesen/i;

/**
 * What an inbound message to the bounce address is (standards.md "Bounces"): an RFC 3464 DSN (classified by
 * its first failed recipient), an RFC 5965 ARF complaint, or something to ignore (auto-replies, out-of-office,
 * anything else).
 */
export function classifyInbound(mail: ParsedMail, raw = ''): InboundReport {
  const contentType = contentTypeParams(mail);
  const reportType = (contentType.params['report-type'] ?? '').toLowerCase();
  const original =
    rawPart(raw, '(?:message/rfc822|text/rfc822-headers)') ||
    (partText(mail, ['message/rfc822', 'text/rfc822-headers', 'message/rfc822-headers']) ??
      (mail.attachments ?? [])
        .map((a) => (a.contentType.startsWith('message/') ? a.content.toString('utf8') : ''))
        .join('\n'));

  if (contentType.value === 'multipart/report' && reportType === 'feedback-report') {
    const feedback = parseFields(partText(mail, ['message/feedback-report']) ?? '');
    const feedbackType = (feedback['feedback-type'] ?? 'abuse').toLowerCase();
    return {
      type: 'complaint',
      feedbackType,
      recipient: feedback['original-rcpt-to'] ?? null,
      referencedTokens: referencedTokens(`${original}\n${mail.text ?? ''}`),
    };
  }

  if (contentType.value === 'multipart/report' && reportType === 'delivery-status') {
    const status =
      partText(mail, ['message/delivery-status', 'message/global-delivery-status']) ??
      rawPart(raw, 'message/(?:global-)?delivery-status');
    const parsed = parseDeliveryStatus(status);
    for (const recipient of parsed.recipients) {
      const kind = classifyRecipient(recipient);
      if (!kind) continue;
      return {
        type: 'bounce',
        bounceKind: kind,
        status: recipient.status,
        diagnostic: recipient.diagnosticCode,
        recipient: recipient.finalRecipient,
        referencedTokens: referencedTokens(original),
      };
    }
    return { type: 'ignored', reason: 'delivered' };
  }

  const autoSubmitted = header(mail, 'auto-submitted').toLowerCase();
  if (
    autoSubmitted.startsWith('auto-replied') ||
    header(mail, 'x-autoreply') !== '' ||
    header(mail, 'x-autorespond') !== '' ||
    /^(auto_reply|vacation)/i.test(header(mail, 'x-auto-response-suppress')) ||
    OUT_OF_OFFICE.test(mail.subject ?? '')
  ) {
    return { type: 'ignored', reason: 'auto-reply' };
  }
  return { type: 'ignored', reason: 'not-a-report' };
}
