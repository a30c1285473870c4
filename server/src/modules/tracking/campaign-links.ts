import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { queryRows } from '../../db/database';
import { perDatabase } from '../../db/per-database';
import { pgTextArray } from '../../db/pg-text-array';
import {
  addOpenPixel,
  escapeAttribute,
  extractTrackableUrls,
  finishTrackedHtml,
  personalisedUrls,
  planTrackedHtml,
  rewriteLinksForTracking,
  type TrackedHtmlPlan,
} from './rewrite-links';
import { signTrackingTokens, trackingTokenSigner } from './tracking-token';

interface CampaignTracking {
  trackOpens: boolean;
  trackClicks: boolean;
  /** url → campaign_links.id */
  linkIds: Map<string, number>;
}

interface TrackingCaches {
  /**
   * Each campaign's links, as this process meets them: inserted (or found) once, then served from memory (bounded).
   * Never read whole: a stream's personalised links grow with every message it ever sent.
   */
  byCampaign: Map<string, Promise<CampaignTracking>>;
  /** link id → { campaign, url } for the click redirect. */
  linkById: Map<number, { campaignId: string; url: string } | null>;
}

/**
 * Per process and per database: `campaign_links.id` is a serial, so link 1 of one database is not link 1 of another.
 */
const caches = perDatabase<TrackingCaches>(() => ({ byCampaign: new Map(), linkById: new Map() }));
const MAX_CAMPAIGNS = 200;
const MAX_LINKS = 100_000;
/** Past this many links in one campaign's cache (personalised URLs), new ones are resolved but not kept. */
const MAX_CACHED_CAMPAIGN_LINKS = 200_000;

function remember<K, V>(map: Map<K, V>, key: K, value: V, max: number): void {
  if (map.size >= max) {
    const first = map.keys().next();
    if (!first.done) map.delete(first.value);
  }
  map.set(key, value);
}

async function campaignTracking(db: Db, campaignId: string): Promise<CampaignTracking> {
  const { byCampaign } = caches.of(db);
  let entry = byCampaign.get(campaignId);
  if (!entry) {
    entry = (async () => {
      const [row] = await queryRows<{ track_opens: boolean; track_clicks: boolean }>(
        db,
        sql`select track_opens, track_clicks from campaigns where id = ${campaignId}`,
      );
      // Empty at first: ensureCampaignLinks asks for the URLs a message has (one statement either way). Reading every
      // link of the campaign here read all of a transactional stream's past personalised links on a worker's first
      // batch.
      return { trackOpens: row?.track_opens ?? true, trackClicks: row?.track_clicks ?? true, linkIds: new Map() };
    })();
    entry.catch(() => byCampaign.delete(campaignId));
    remember(byCampaign, campaignId, entry, MAX_CAMPAIGNS);
  }
  return entry;
}

/** The campaign_links ids of these URLs, inserting the missing ones (idempotent, safe across processes). */
export async function ensureCampaignLinks(db: Db, campaignId: string, urls: string[]): Promise<Map<string, number>> {
  const tracking = await campaignTracking(db, campaignId);
  const missing = urls.filter((url) => !tracking.linkIds.has(url));
  if (missing.length > 0) {
    const rows = await queryRows<{ id: number; url: string }>(
      db,
      sql`with input as (select distinct u as url from unnest(${pgTextArray(missing)}::text[]) as u),
          ins as (insert into campaign_links (campaign_id, url) select ${campaignId}::uuid, url from input
                  on conflict (campaign_id, url) do nothing returning id, url)
          select id, url from ins
          union all
          select l.id, l.url from campaign_links l join input i on i.url = l.url where l.campaign_id = ${campaignId}`,
    );
    // A row inserted by a concurrent transaction (another worker) is neither inserted nor visible to the
    // statement above (its snapshot predates that commit): read those again, now committed.
    const found = new Set(rows.map((row) => row.url));
    const raced = missing.filter((url) => !found.has(url));
    if (raced.length > 0) {
      rows.push(
        ...(await queryRows<{ id: number; url: string }>(
          db,
          sql`select id, url from campaign_links
               where campaign_id = ${campaignId} and url = any(${pgTextArray(raced)}::text[])`,
        )),
      );
    }
    if (tracking.linkIds.size + rows.length > MAX_CACHED_CAMPAIGN_LINKS) {
      // Answer with the cache plus this call's rows, without growing the cache.
      const answer = new Map(rows.map((row) => [row.url, Number(row.id)]));
      for (const url of urls) {
        const id = tracking.linkIds.get(url);
        if (id !== undefined) answer.set(url, id);
      }
      return answer;
    }
    for (const row of rows) tracking.linkIds.set(row.url, Number(row.id));
  }
  return tracking.linkIds;
}

/** The stored URL of a link (cached), or null when there is no such link. */
export async function findCampaignLink(db: Db, linkId: number): Promise<{ campaignId: string; url: string } | null> {
  const { linkById } = caches.of(db);
  const cached = linkById.get(linkId);
  if (cached !== undefined) return cached;
  const [row] = await queryRows<{ campaign_id: string; url: string }>(
    db,
    sql`select campaign_id, url from campaign_links where id = ${linkId}`,
  );
  const link = row ? { campaignId: row.campaign_id, url: row.url } : null;
  if (link) remember(linkById, linkId, link, MAX_LINKS);
  return link;
}

/**
 * The tracking step of rendering one message (called from the sending engine's decorateForTracking): rewrite
 * the links to the click redirect and add the open pixel, as the campaign's track_clicks / track_opens say.
 */
export async function applyTracking(
  db: Db,
  html: string,
  options: { campaignId: string; messageToken: string; publicUrl: string },
): Promise<string> {
  const tracking = await campaignTracking(db, options.campaignId);
  let out = html;
  if (tracking.trackClicks) {
    const urls = extractTrackableUrls(out, options.publicUrl);
    const linkIds = urls.length > 0 ? await ensureCampaignLinks(db, options.campaignId, urls) : tracking.linkIds;
    out = rewriteLinksForTracking(out, { publicUrl: options.publicUrl, messageToken: options.messageToken, linkIds });
  }
  if (tracking.trackOpens) out = addOpenPixel(out, options);
  return out;
}

/**
 * A campaign's tracking, prepared once per sending process (the engine's fast path; `applyTracking` is the
 * per-message equivalent). The HTML source is planned (planTrackedHtml) and its static links get their
 * campaign_links ids here, in one statement; each message then only renders, scans for the markers and signs
 * its tokens. Links whose URL is built with Liquid are resolved per batch (`resolvePersonalised`): one
 * statement for the URLs not seen yet, cached afterwards.
 */
export interface PreparedTracking {
  readonly campaignId: string;
  readonly publicUrl: string;
  readonly trackOpens: boolean;
  readonly trackClicks: boolean;
  readonly plan: TrackedHtmlPlan;
  readonly staticIds: number[];
  /** staticIds then 0 (the open pixel): what the fast path signs for each message. */
  readonly staticIdsAndPixel: number[];
  /** PUBLIC_URL as written in an attribute. */
  readonly urlPrefix: string;
  /** url → campaign_links id, the process-wide cache (personalised links are added as they are met). */
  readonly linkIds: ReadonlyMap<string, number>;
}

export async function prepareCampaignTracking(
  db: Db,
  options: { campaignId: string; html: string; publicUrl: string },
): Promise<PreparedTracking> {
  const tracking = await campaignTracking(db, options.campaignId);
  const plan = planTrackedHtml(options.html, {
    publicUrl: options.publicUrl,
    trackClicks: tracking.trackClicks,
    trackOpens: tracking.trackOpens,
    nonce: randomBytes(6).toString('hex'),
  });
  const linkIds =
    plan.staticUrls.length > 0 ? await ensureCampaignLinks(db, options.campaignId, plan.staticUrls) : tracking.linkIds;
  const staticIds = plan.staticUrls.map((url) => {
    const id = linkIds.get(url);
    if (id === undefined) throw new Error(`campaign link not stored: ${url}`);
    return id;
  });
  return {
    campaignId: options.campaignId,
    publicUrl: options.publicUrl,
    trackOpens: tracking.trackOpens,
    trackClicks: tracking.trackClicks,
    plan,
    staticIds,
    staticIdsAndPixel: [...staticIds, 0],
    urlPrefix: escapeAttribute(options.publicUrl),
    linkIds: tracking.linkIds,
  };
}

/**
 * Stores the personalised tracked URLs of these rendered messages that are not known yet (one statement) and
 * answers the ids to use for this batch (pass them to trackMessageHtml).
 */
export async function resolvePersonalisedLinks(
  db: Db,
  prepared: PreparedTracking,
  htmls: string[],
): Promise<ReadonlyMap<string, number>> {
  if (!prepared.plan.personalised) return prepared.linkIds;
  const urls = new Set<string>();
  for (const html of htmls) personalisedUrls(html, prepared.plan, prepared.publicUrl, urls);
  const missing = [...urls].filter((url) => !prepared.linkIds.has(url));
  if (missing.length === 0) return prepared.linkIds;
  return ensureCampaignLinks(db, prepared.campaignId, missing);
}

/** The final HTML of one message: click URLs, open pixel (sync; personalised links resolved beforehand). */
export function trackMessageHtml(
  prepared: PreparedTracking,
  html: string,
  messageToken: string,
  batchIds: ReadonlyMap<string, number> = prepared.linkIds,
): string {
  if (!prepared.plan.hasMarkers) return html;
  const cache = prepared.linkIds;
  return finishTrackedHtml(html, prepared.plan, {
    publicUrl: prepared.publicUrl,
    sign: trackingTokenSigner(messageToken),
    staticIds: prepared.staticIds,
    linkIdOf: batchIds === cache ? (url) => cache.get(url) : (url) => batchIds.get(url) ?? cache.get(url),
  });
}

/**
 * The per-message URLs of the fast body path (sending/body-program.ts): click URL of static link `index`, open
 * pixel URL, and the string path for a rendered piece that holds markers.
 */
export function messageTrackingHooks(prepared: PreparedTracking, messageToken: string) {
  // Every static link appears in the body: their tokens and the pixel's are signed together (link id 0 last).
  const tokens = signTrackingTokens(messageToken, prepared.staticIdsAndPixel);
  const pixelToken = tokens[tokens.length - 1] as string;
  const prefix = prepared.urlPrefix;
  return {
    click: (index: number) => `${prefix}/c/${tokens[index] as string}`,
    pixel: () => `${prefix}/o/${pixelToken}.gif`,
    finish: (rendered: string) => trackMessageHtml(prepared, rendered, messageToken),
  };
}

/** Tests: forget the caches. */
export function clearTrackingCaches(): void {
  caches.reset();
}
