/**
 * Machine opens and clicks (standards.md "Tracking"): recorded, flagged, kept out of human rates.
 *
 * - HEAD requests: only link checkers send them.
 * - Apple Mail Privacy Protection: Apple's proxy pre-fetches every image when the message is delivered to
 *   the device, with the bare user agent `Mozilla/5.0` and from Apple's 17.0.0.0/8 network.
 * - Security scanners and link prefetchers (Microsoft Safe Links, Proofpoint, Mimecast, Barracuda, Cisco,
 *   Symantec/MessageLabs, Trend Micro, Fortinet, Sophos, Forcepoint, link unfurlers, HTTP libraries).
 * - An empty user agent.
 * - A request that does not look like a browser or mail client (no `Mozilla/` token) within a few seconds of
 *   delivery (TRACKING_MACHINE_WINDOW_SECONDS): gateways that scan on arrival. Decided when the event is
 *   written, against the message's sent_at.
 *
 * Gmail's and Yahoo's image proxies (GoogleImageProxy, YahooMailProxy) fetch when the person opens the
 * message, so they count as human.
 */
const SCANNER_UA =
  /bot\b|crawler|spider|scanner|preview|barracuda|mimecast|proofpoint|symantec|messagelabs|trendmicro|trend micro|fortinet|fortiguard|sophos|forcepoint|ironport|cisco|mcafee|safelinks|safe links|microsoft office|ms-office|msoffice|curl\/|wget\/|python-requests|python-urllib|aiohttp|go-http-client|java\/|okhttp|axios\/|node-fetch|undici|headless|phantomjs|slackbot|facebookexternalhit|linkedinbot|twitterbot|whatsapp|discordbot|telegrambot|skypeuripreview/i;

export interface MachineVerdict {
  /** Certainly a machine. */
  machine: boolean;
  /** Not a browser: a machine if it arrives within the window after delivery. */
  nonBrowser: boolean;
}

export function isAppleProxyIp(ip: string): boolean {
  const v4 = ip.startsWith('::ffff:') ? ip.slice(7) : ip;
  return /^17\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4);
}

export function classifyRequest(input: { method: string; userAgent: string; ip: string }): MachineVerdict {
  const ua = input.userAgent.trim();
  const machine =
    input.method === 'HEAD' || ua === '' || ua === 'Mozilla/5.0' || isAppleProxyIp(input.ip) || SCANNER_UA.test(ua);
  return { machine, nonBrowser: !/Mozilla\//.test(ua) };
}
