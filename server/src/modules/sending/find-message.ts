import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/database';

/** Who a message went to, for the modules that learn of it by its token (a bounce's VERP address, an SNS report). */
export interface MessageFacts {
  id: number;
  campaign_id: string;
  account_id: string;
  contact_id: string | null;
  email: string;
}

/** The message a token names (one index probe, messages_token_idx); null for a token that is not one. */
export async function findMessageByToken(db: Db, token: string): Promise<MessageFacts | null> {
  if (!/^[A-Za-z0-9_-]{16,128}$/.test(token)) return null;
  const [row] = await queryRows<MessageFacts>(
    db,
    sql`select id, campaign_id, account_id, contact_id, email from messages where token = ${token}`,
  );
  return row ? { ...row, id: Number(row.id) } : null;
}
