import { sql } from 'drizzle-orm';
import { asDb, type DbOrTx, queryRows } from '../../db/database';
import type { BounceKind } from './tracking.db';

export type { BounceKind };

/** An event that reaches Carteiro outside the tracking routes: a bounce or complaint report, an unsubscribe. */
export interface ReportedMessageEvent {
  messageId: number;
  campaignId: string;
  accountId: string;
  contactId: string | null;
  kind: 'bounce' | 'complaint' | 'unsubscribe';
  bounceKind: BounceKind | null;
  detail: string | null;
  userAgent: string | null;
}

/**
 * Records the event once per message, kind and bounce kind (a repeated report or a second click on "descadastrar"
 * adds nothing), in one statement on the caller's handle or transaction. True when this call recorded it.
 */
export async function recordMessageEventOnce(db: DbOrTx, event: ReportedMessageEvent): Promise<boolean> {
  const inserted = await queryRows<{ id: number }>(
    asDb(db),
    sql`insert into message_events (message_id, campaign_id, account_id, contact_id, kind, bounce_kind, detail, user_agent)
        select ${event.messageId}, ${event.campaignId}, ${event.accountId}, ${event.contactId}, ${event.kind},
               ${event.bounceKind}, ${event.detail}, ${event.userAgent}
        where not exists (select 1 from message_events where message_id = ${event.messageId} and kind = ${event.kind}
                            and bounce_kind is not distinct from ${event.bounceKind})
        returning id`,
  );
  return inserted.length > 0;
}
