import { desc, eq } from 'drizzle-orm';
import { simpleParser } from 'mailparser';
import type { Db } from '../../db/database';
import type { CaughtMail } from '../../mail/mail-catcher';
import { devMailMessages } from './dev-mailbox.db';

export interface DevMailSummary {
  id: number;
  receivedAt: Date;
  from: string;
  to: string[];
  subject: string;
}

export interface DevMailDetail extends DevMailSummary {
  headers: Array<{ name: string; value: string }>;
  html: string | null;
  text: string;
  raw: string;
}

const SUBJECT_HEADER = /^subject:[ \t]*(.*(?:\r?\n[ \t].*)*)/im;

/** Stores one message the catcher received. */
export async function storeCaughtMail(db: Db, mail: CaughtMail): Promise<void> {
  const headerBlock = mail.raw.split(/\r?\n\r?\n/, 1)[0] ?? '';
  const rawSubject = SUBJECT_HEADER.exec(headerBlock)?.[1] ?? '';
  const parsed = rawSubject ? await simpleParser(`Subject: ${rawSubject}\r\n\r\n`) : null;
  await db.insert(devMailMessages).values({
    envelopeFrom: mail.envelopeFrom,
    envelopeTo: mail.envelopeTo,
    subject: parsed?.subject ?? '',
    raw: mail.raw,
  });
}

/** The newest messages first. */
export async function listDevMail(db: Db, limit = 200): Promise<DevMailSummary[]> {
  const rows = await db
    .select({
      id: devMailMessages.id,
      receivedAt: devMailMessages.receivedAt,
      from: devMailMessages.envelopeFrom,
      to: devMailMessages.envelopeTo,
      subject: devMailMessages.subject,
    })
    .from(devMailMessages)
    .orderBy(desc(devMailMessages.id))
    .limit(limit);
  return rows;
}

/** One message parsed (headers, HTML, text); null when it does not exist. */
export async function findDevMail(db: Db, id: number): Promise<DevMailDetail | null> {
  const [row] = await db.select().from(devMailMessages).where(eq(devMailMessages.id, id));
  if (!row) return null;
  const parsed = await simpleParser(row.raw);
  const headers = parsed.headerLines.map((line) => {
    const colon = line.line.indexOf(':');
    return { name: line.line.slice(0, colon), value: line.line.slice(colon + 1).trim() };
  });
  return {
    id: row.id,
    receivedAt: row.receivedAt,
    from: row.envelopeFrom,
    to: row.envelopeTo,
    subject: row.subject,
    headers,
    html: typeof parsed.html === 'string' ? parsed.html : null,
    text: parsed.text ?? '',
    raw: row.raw,
  };
}

export async function clearDevMail(db: Db): Promise<void> {
  await db.delete(devMailMessages);
}
