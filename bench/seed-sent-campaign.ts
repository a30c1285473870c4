import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '../server/src/db/database';

/**
 * A bench's account with one campaign already sent to `recipients` (its send row included) and `links` tracked
 * links `https://loja.exemplo.com.br/produtos/<n><linkSuffix>`: the starting point of the tracking and report
 * benches, which then insert the messages and events they measure.
 */
export async function seedSentCampaign(
  db: Db,
  options: { name: string; recipients: number; links: number; linkSuffix?: string },
): Promise<{ accountId: string; campaignId: string; linkIds: number[] }> {
  const [account] = await queryRows<{ id: string }>(
    db,
    sql`insert into accounts (uuid, owner_user_id, name) values (gen_random_uuid(), 'bench', 'Loja Bench') returning id`,
  );
  const accountId = (account as { id: string }).id;
  const [campaign] = await queryRows<{ id: string }>(
    db,
    sql`insert into campaigns (uuid, created_by, name, subject, status, recipients_count, sent_count)
        values (gen_random_uuid(), ${accountId}, ${options.name}, 'Ofertas', 'sent', ${options.recipients},
                ${options.recipients}) returning id`,
  );
  const campaignId = (campaign as { id: string }).id;
  await db.execute(
    sql`insert into campaign_sends (campaign_id, account_id, recipients)
        values (${campaignId}, ${accountId}, ${options.recipients})`,
  );
  const links = await queryRows<{ id: number }>(
    db,
    sql`insert into campaign_links (campaign_id, url)
        select ${campaignId}, 'https://loja.exemplo.com.br/produtos/' || g || ${options.linkSuffix ?? ''}
          from generate_series(1, ${options.links}::int) g
        returning id`,
  );
  return { accountId, campaignId, linkIds: links.map((l) => Number(l.id)) };
}
