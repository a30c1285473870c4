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

function escapeAttribute(value: string): string {
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
