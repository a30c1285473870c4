import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/database';

/**
 * The recipient of one message, named by its unguessable token: what the unsubscribe pages act on and whom the
 * public viewer renders a campaign for. A read of the campaign's messages, so it lives with campaigns, below both.
 */
export interface UnsubscribeTarget {
  messageId: number;
  campaignId: string;
  accountId: string;
  accountName: string;
  contactId: string | null;
  email: string;
  contactStatus: string | null;
  campaignListIds: string[];
  /** The A/B test variant the message carried (0 = A); null for a normal campaign. */
  variant: number | null;
}

/** The recipient a message token names (the token is the only credential), or null. */
export async function findUnsubscribeTarget(db: Db, token: string): Promise<UnsubscribeTarget | null> {
  if (!/^[A-Za-z0-9_-]{16,128}$/.test(token)) return null;
  const [row] = await queryRows<{
    id: number;
    campaign_id: string;
    account_id: string;
    account_name: string;
    contact_id: string | null;
    email: string;
    contact_status: string | null;
    include_list_ids: string[] | string;
    variant: number | null;
  }>(
    db,
    // A message of the account's stream (transactional API, automations) names no contact: the account's contact
    // with that address, if any, is the person who asked to leave (so their status and lists follow).
    sql`select m.id, m.campaign_id, m.account_id, a.name as account_name, ct.id as contact_id, m.email,
               ct.status as contact_status, c.include_list_ids, m.variant
          from messages m
          join campaigns c on c.id = m.campaign_id
          join accounts a on a.id = m.account_id
          left join contacts ct on ct.account_id = m.account_id
                and (ct.id = m.contact_id or (m.contact_id is null and ct.email = m.email))
         where m.token = ${token}`,
  );
  if (!row) return null;
  const lists = Array.isArray(row.include_list_ids)
    ? row.include_list_ids
    : String(row.include_list_ids).replace(/[{}]/g, '').split(',').filter(Boolean);
  return {
    messageId: Number(row.id),
    campaignId: row.campaign_id,
    accountId: row.account_id,
    accountName: row.account_name,
    contactId: row.contact_id,
    email: row.email,
    contactStatus: row.contact_status,
    campaignListIds: lists,
    variant: row.variant === null ? null : Number(row.variant),
  };
}
