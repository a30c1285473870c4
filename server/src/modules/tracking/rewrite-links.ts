import { signTrackingToken } from './tracking-token';

const ANCHOR_HREF = /(<a\b[^>]*?\shref\s*=\s*)(["'])(.*?)\2/gis;

function decodeEntities(value: string): string {
  return value
    .replace(/&amp;/gi, '&')
    .replace(/&#0*38;/g, '&')
    .replace(/&quot;/gi, '"')
    .replace(/&#0*39;|&apos;/gi, "'")
    .replace(/&lt;/gi, '<')
    .replace(/&gt;/gi, '>');
}

export function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Whether a link of the message is tracked: http(s) only, not our own unsubscribe / "ver no navegador" links. */
export function isTrackableUrl(url: string, publicUrl: string): boolean {
  if (!/^https?:\/\/[^\s"'<>]+$/i.test(url) || url.length > 2000) return false;
  if (url.startsWith(`${publicUrl}/u/`) || url.startsWith(`${publicUrl}/campaign/`)) return false;
  if (url.startsWith(`${publicUrl}/c/`) || url.startsWith(`${publicUrl}/o/`)) return false;
  return true;
}

/** The distinct trackable URLs of the anchors of an HTML body, in order of appearance. */
export function extractTrackableUrls(html: string, publicUrl: string): string[] {
  const urls = new Set<string>();
  for (const match of html.matchAll(ANCHOR_HREF)) {
    const url = decodeEntities((match[3] ?? '').trim());
    if (isTrackableUrl(url, publicUrl)) urls.add(url);
  }
  return [...urls];
}

export function clickUrl(publicUrl: string, messageToken: string, linkId: number): string {
  return `${publicUrl}/c/${signTrackingToken(messageToken, linkId)}`;
}

export function openPixelUrl(publicUrl: string, messageToken: string): string {
  return `${publicUrl}/o/${signTrackingToken(messageToken, 0)}.gif`;
}

/**
 * Rewrites each trackable anchor of the message to its click redirect, `/c/<signed token of (message, link)>`.
 * `linkIds` maps each URL to its campaign_links id (see ensureCampaignLinks); a URL without an id stays as is.
 */
export function rewriteLinksForTracking(
  html: string,
  options: { publicUrl: string; messageToken: string; linkIds: ReadonlyMap<string, number> },
): string {
  return html.replace(ANCHOR_HREF, (whole, head: string, quote: string, raw: string) => {
    const url = decodeEntities(raw.trim());
    const id = options.linkIds.get(url);
    if (id === undefined || !isTrackableUrl(url, options.publicUrl)) return whole;
    return `${head}${quote}${escapeAttribute(clickUrl(options.publicUrl, options.messageToken, id))}${quote}`;
  });
}

/** Adds the 1×1 open pixel at the end of the body. */
export function addOpenPixel(html: string, options: { publicUrl: string; messageToken: string }): string {
  const img = `<img src="${escapeAttribute(openPixelUrl(options.publicUrl, options.messageToken))}" width="1" height="1" alt="" style="display:block;border:0;width:1px;height:1px;overflow:hidden" />`;
  const close = html.search(/<\/body\s*>/i);
  return close === -1 ? html + img : html.slice(0, close) + img + html.slice(close);
}

// ------------------------------------------------------------------------------------------------------------
// The sending engine's fast path: the campaign's HTML *source* is prepared once per campaign (links found,
// markers placed), so each message costs one string scan and the token signatures, with no regex and no
// database round-trip in the normal case (links identical for every recipient).

const LIQUID_TAG = /\{\{[\s\S]*?\}\}|\{%[\s\S]*?%\}/g;
/** The engine's own links: never rewritten (RFC 8058 unsubscribe must work directly). */
const OWN_LINK_TAG = /^\{\{-?\s*(?:link_descadastro|link_navegador)\s*-?\}\}$/;
const BODY_OPEN = /<body\b[^>]*>/i;
const BODY_CLOSE = /<\/body\s*>/i;
/** A `{{ … | raw }}` output may carry anchors the source does not show: such templates use the slow path. */
const RAW_FILTER = /\|\s*raw\b/;

/** "Ver no navegador", added at the top of the body when the template does not show {{ link_navegador }}. */
export const BROWSER_LINK_BLOCK =
  '<div style="text-align:center;font-size:12px;padding:8px 0"><a href="{{ link_navegador }}" style="color:#666666">Ver no navegador</a></div>';

const PIXEL_ATTRIBUTES =
  'width="1" height="1" alt="" style="display:block;border:0;width:1px;height:1px;overflow:hidden"';

export interface TrackedHtmlPlan {
  /** The HTML source to compile with Liquid: markers in place of tracked hrefs and the pixel's src. */
  readonly source: string;
  /** `\u0001` + a per-campaign random nonce: contact data cannot forge it. */
  readonly marker: string;
  /** The distinct static trackable URLs; the marker `L<i>;` stands for the click URL of `staticUrls[i]`. */
  readonly staticUrls: string[];
  /** Some tracked href contains Liquid: its rendered value sits between the markers `P` and `E`. */
  readonly personalised: boolean;
  /** Whether any marker was placed (false: the rendered HTML is final as is). */
  readonly hasMarkers: boolean;
  /** The template may emit anchors the source does not show (`| raw`): rewrite each rendered message instead. */
  readonly perMessage: boolean;
}

/**
 * Prepares a campaign's HTML source for tracking: adds the "ver no navegador" block (unless the template shows
 * `{{ link_navegador }}`), replaces the href of every trackable anchor by a marker (static URL) or wraps it in
 * markers (URL built with Liquid), and places the open pixel before `</body>`. Liquid tags are protected while
 * the anchors are scanned, so a `"` or `>` inside a tag cannot confuse the scan. Unsubscribe and "ver no
 * navegador" hrefs, non-http(s) links and our own URLs are left alone.
 */
export function planTrackedHtml(
  source: string,
  options: { publicUrl: string; trackClicks: boolean; trackOpens: boolean; nonce: string },
): TrackedHtmlPlan {
  const marker = `\u0001${options.nonce}`;
  let html = source;
  if (!html.includes('link_navegador')) {
    const body = BODY_OPEN.exec(html);
    html = body
      ? html.slice(0, body.index + body[0].length) + BROWSER_LINK_BLOCK + html.slice(body.index + body[0].length)
      : BROWSER_LINK_BLOCK + html;
  }
  const perMessage = RAW_FILTER.test(source);
  const staticUrls: string[] = [];
  let personalised = false;
  let hasMarkers = false;
  if (options.trackClicks && !perMessage) {
    const tags: string[] = [];
    const tagMarker = `${marker}T`;
    const restore = (text: string) =>
      text.includes(tagMarker)
        ? text.replace(new RegExp(`${tagMarker}(\\d+);`, 'g'), (_m, i: string) => tags[Number(i)] ?? '')
        : text;
    const index = new Map<string, number>();
    const protectedHtml = html.replace(LIQUID_TAG, (tag) => `${tagMarker}${tags.push(tag) - 1};`);
    html = restore(
      protectedHtml.replace(ANCHOR_HREF, (whole, head: string, quote: string, raw: string) => {
        if (raw.includes(tagMarker)) {
          if (OWN_LINK_TAG.test(restore(raw).trim())) return whole;
          personalised = true;
          hasMarkers = true;
          return `${head}${quote}${marker}P${raw}${marker}E${quote}`;
        }
        const url = decodeEntities(raw.trim());
        if (!isTrackableUrl(url, options.publicUrl)) return whole;
        let i = index.get(url);
        if (i === undefined) {
          i = staticUrls.push(url) - 1;
          index.set(url, i);
        }
        hasMarkers = true;
        return `${head}${quote}${marker}L${i};${quote}`;
      }),
    );
  }
  if (options.trackOpens && !perMessage) {
    const img = `<img src="${marker}O" ${PIXEL_ATTRIBUTES} />`;
    const close = BODY_CLOSE.exec(html);
    html = close ? html.slice(0, close.index) + img + html.slice(close.index) : html + img;
    hasMarkers = true;
  }
  return { source: html, marker, staticUrls, personalised, hasMarkers, perMessage };
}

/** The rendered values of the personalised tracked hrefs of one rendered message, decoded, trackable only. */
export function personalisedUrls(html: string, plan: TrackedHtmlPlan, publicUrl: string, into: Set<string>): void {
  const open = `${plan.marker}P`;
  const close = `${plan.marker}E`;
  for (let at = html.indexOf(open); at >= 0; at = html.indexOf(open, at + open.length)) {
    const end = html.indexOf(close, at + open.length);
    if (end < 0) return;
    const url = decodeEntities(html.slice(at + open.length, end).trim());
    if (isTrackableUrl(url, publicUrl)) into.add(url);
  }
}

/**
 * Replaces the markers of one rendered message: static links by their click URL, personalised ones by their
 * click URL when `linkIdOf` knows the rendered URL (otherwise the rendered URL itself), the pixel's src by the
 * open URL. `sign(linkId)` is the message's token signer (trackingTokenSigner); `staticIds[i]` the
 * campaign_links id of `plan.staticUrls[i]`.
 */
export function finishTrackedHtml(
  html: string,
  plan: TrackedHtmlPlan,
  options: {
    publicUrl: string;
    sign: (linkId: number) => string;
    staticIds: readonly number[];
    linkIdOf: (url: string) => number | undefined;
  },
): string {
  const { marker } = plan;
  let at = html.indexOf(marker);
  if (at < 0) return html;
  const prefix = escapeAttribute(options.publicUrl);
  const m = marker.length;
  let out = '';
  let from = 0;
  while (at >= 0) {
    out += html.slice(from, at);
    const kind = html.charCodeAt(at + m);
    from = at + m + 1;
    if (kind === 76 /* L */) {
      const semi = html.indexOf(';', from);
      const id = options.staticIds[Number(html.slice(from, semi))];
      from = semi + 1;
      if (id !== undefined) out += `${prefix}/c/${options.sign(id)}`;
    } else if (kind === 79 /* O */) {
      out += `${prefix}/o/${options.sign(0)}.gif`;
    } else if (kind === 80 /* P */) {
      // The value runs to the next marker, which must be its E (Liquid control flow could drop the E).
      const next = html.indexOf(marker, from);
      if (next >= 0 && html.charCodeAt(next + m) === 69 /* E */) {
        const raw = html.slice(from, next);
        const url = decodeEntities(raw.trim());
        const id = isTrackableUrl(url, options.publicUrl) ? options.linkIdOf(url) : undefined;
        out += id === undefined ? raw : `${prefix}/c/${options.sign(id)}`;
        from = next + m + 1;
      }
    }
    // Any other marker (a stray E) is dropped.
    at = html.indexOf(marker, from);
  }
  return out + html.slice(from);
}
