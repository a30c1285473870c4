import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestAccount } from '../../../test/support/test-account';
import { createTestDatabase, DATABASE_KINDS } from '../../../test/support/test-database';
import { queryRows } from '../../db/database';
import { createReadyCampaign } from '../sending/testing/send-fixtures';
import { ensureCampaignLinks, findCampaignLink } from './campaign-links';

type TestDatabase = Awaited<ReturnType<typeof createTestDatabase>>;

// The link caches are per database: `campaign_links.id` is a serial, so two databases in one process (the test
// suite runs many files in one process, vitest.config.ts `isolate: false`) both have a link 1, and a click on one's
// link must never be redirected to the other's URL.
describe.each(DATABASE_KINDS)('campaign link caches on %s', (kind) => {
  let first: TestDatabase;
  let second: TestDatabase;
  beforeAll(async () => {
    [first, second] = await Promise.all([createTestDatabase(kind), createTestDatabase(kind)]);
  });
  afterAll(async () => {
    await Promise.all([first?.close(), second?.close()]);
  });

  async function linkIn(database: TestDatabase, url: string) {
    const account = await createTestAccount(database.db);
    const campaignId = await createReadyCampaign(database.db, account.id, { includeListIds: [] });
    const ids = await ensureCampaignLinks(database.db, campaignId, [url]);
    return { campaignId, linkId: ids.get(url) as number };
  }

  it('answers each database its own link for the same serial id', async () => {
    const a = await linkIn(first, 'https://primeira.exemplo.com.br/oferta');
    const b = await linkIn(second, 'https://segunda.exemplo.com.br/oferta');
    // Both fresh databases number their first link alike: the case the per-database key is for.
    expect(b.linkId).toBe(a.linkId);

    // The first lookup caches the first database's link; the second must not be served from that entry.
    expect(await findCampaignLink(first.db, a.linkId)).toEqual({
      campaignId: a.campaignId,
      url: 'https://primeira.exemplo.com.br/oferta',
    });
    expect(await findCampaignLink(second.db, b.linkId)).toEqual({
      campaignId: b.campaignId,
      url: 'https://segunda.exemplo.com.br/oferta',
    });
    // And cached in both now, still apart.
    expect((await findCampaignLink(first.db, a.linkId))?.url).toBe('https://primeira.exemplo.com.br/oferta');
    expect((await findCampaignLink(second.db, b.linkId))?.url).toBe('https://segunda.exemplo.com.br/oferta');
  });

  it("learns a campaign's links as it meets them, never reading the campaign's stored links whole", async () => {
    // A stream's past personalised links (one per order, say), stored by earlier sends or another process.
    const account = await createTestAccount(first.db);
    const campaignId = await createReadyCampaign(first.db, account.id, { includeListIds: [] });
    const stored = await queryRows<{ id: number; url: string }>(
      first.db,
      sql`insert into campaign_links (campaign_id, url)
          select ${campaignId}::uuid, 'https://loja.exemplo.com.br/pedido/' || g from generate_series(1, 50) g
          returning id, url`,
    );
    const known = stored[7] as { id: number; url: string };
    const ids = await ensureCampaignLinks(first.db, campaignId, [known.url, 'https://loja.exemplo.com.br/novo']);
    expect(ids.get(known.url)).toBe(Number(known.id)); // the stored id, not a second row
    expect(ids.has('https://loja.exemplo.com.br/novo')).toBe(true);
    // What this process holds of the campaign: the two URLs asked for, not the 50 stored.
    expect(ids.size).toBe(2);
    const [count] = await queryRows<{ n: number }>(
      first.db,
      sql`select count(*)::int as n from campaign_links where campaign_id = ${campaignId}`,
    );
    expect(count?.n).toBe(51);
  });
});
