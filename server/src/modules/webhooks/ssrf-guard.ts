import { BlockList, isIP } from 'node:net';
import type { DnsResolver } from '../../net/dns';

/**
 * IPv4 ranges a webhook may never reach (SSRF): loopback, private (RFC 1918, CGNAT), link-local (incl. the
 * 169.254.169.254 metadata address), unspecified, multicast, reserved/broadcast, documentation/benchmark nets.
 */
const blockedV4 = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blockedV4.addSubnet(net, prefix, 'ipv4');
}

/**
 * IPv6 is an allow list, as SSRF filters built on the IANA registries do (ipaddr.js "unicast" only): global
 * unicast 2000::/3, minus the IETF protocol block 2001::/23 (Teredo 2001::/32, whose client is an IPv4 address
 * in disguise, benchmarking, ORCHID, AMT), 6to4 2002::/16 (deprecated, RFC 7526; it embeds an IPv4),
 * documentation 2001:db8::/32 and 3fff::/20. Everything outside 2000::/3 is refused — loopback, unspecified, the
 * deprecated IPv4-compatible ::/96 (::7f00:1 is 127.0.0.1), IPv4-translated ::ffff:0:0:0/96, local-use NAT64
 * 64:ff9b:1::/48, ULA, link-local, site-local, multicast, discard — except the two forms that carry an IPv4 a
 * host really reaches: IPv4-mapped ::ffff:0:0/96 and well-known NAT64 64:ff9b::/96, judged by that IPv4.
 */
const blockedV6 = new BlockList();
for (const [net, prefix] of [
  ['2001::', 23],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['3fff::', 20],
] as const) {
  blockedV6.addSubnet(net, prefix, 'ipv6');
}

/** The 16 bytes of an IPv6 literal (a dotted IPv4 tail and a zone id allowed); null when it is not one. */
function ipv6Bytes(address: string): Uint8Array | null {
  let text = address.toLowerCase().replace(/%.*$/, '');
  const tail = text.match(/^(.*:)(\d+\.\d+\.\d+\.\d+)$/);
  if (tail?.[1] && tail[2]) {
    if (isIP(tail[2]) !== 4) return null;
    const [a, b, c, d] = tail[2].split('.').map(Number) as [number, number, number, number];
    text = `${tail[1]}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const head = halves[0] ? halves[0].split(':') : [];
  const rest = halves.length === 2 && halves[1] ? halves[1].split(':') : [];
  const missing = 8 - head.length - rest.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...rest];
  const bytes = new Uint8Array(16);
  for (const [i, group] of groups.entries()) {
    if (!/^[0-9a-f]{1,4}$/.test(group)) return null;
    const value = Number.parseInt(group, 16);
    bytes[i * 2] = value >> 8;
    bytes[i * 2 + 1] = value & 255;
  }
  return bytes;
}

const startsWith = (bytes: Uint8Array, prefix: readonly number[]) => prefix.every((b, i) => bytes[i] === b);
const MAPPED = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff];
const NAT64 = [0, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0];

/** True when an IP literal is one a webhook must not reach. */
export function isForbiddenAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return blockedV4.check(address, 'ipv4');
  if (family !== 6) return true;
  const bytes = ipv6Bytes(address);
  if (!bytes) return true;
  if (startsWith(bytes, MAPPED) || startsWith(bytes, NAT64)) {
    return blockedV4.check(Array.from(bytes.subarray(12)).join('.'), 'ipv4');
  }
  const globalUnicast = ((bytes[0] as number) & 0xe0) === 0x20;
  return !globalUnicast || blockedV6.check(address.replace(/%.*$/, ''), 'ipv6');
}

/**
 * "localhost" and every name under it are loopback (RFC 6761 §6.3, the WHATWG URL standard): answered here,
 * never sent to a resolver that could say otherwise.
 */
function isLocalhostName(host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
}

export type UrlRefusal = 'invalid' | 'scheme' | 'credentials' | 'unresolvable' | 'forbidden_address';

export class UnsafeWebhookUrl extends Error {
  constructor(
    readonly reason: UrlRefusal,
    message: string,
  ) {
    super(message);
  }
}

export interface VettedTarget {
  url: URL;
  /** The address to connect to (already checked): connecting to it, not to a second look-up, defeats rebinding. */
  address: string;
  family: 4 | 6;
}

export interface GuardOptions {
  resolver: Pick<DnsResolver, 'addresses'>;
  /** Development/tests setting: loopback/private addresses and http:// allowed. */
  allowPrivate: boolean;
  /** Production: https only. */
  requireHttps: boolean;
}

/**
 * Checks a webhook URL and resolves its host once: refuses bad schemes, credentials in the URL, names that do
 * not resolve and any name with at least one forbidden address (all must be public). Throws UnsafeWebhookUrl
 * with a pt-BR message.
 */
export async function vetWebhookUrl(raw: string, options: GuardOptions): Promise<VettedTarget> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UnsafeWebhookUrl('invalid', 'URL inválida.');
  }
  const httpsOnly = options.requireHttps && !options.allowPrivate;
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && !httpsOnly)) {
    throw new UnsafeWebhookUrl(
      'scheme',
      httpsOnly ? 'A URL precisa começar com https://.' : 'Use uma URL http:// ou https://.',
    );
  }
  if (url.username || url.password) {
    throw new UnsafeWebhookUrl('credentials', 'A URL não pode conter usuário ou senha.');
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else if (isLocalhostName(host)) addresses = ['127.0.0.1'];
  else {
    try {
      addresses = await options.resolver.addresses(host);
    } catch {
      addresses = [];
    }
  }
  if (addresses.length === 0) {
    throw new UnsafeWebhookUrl('unresolvable', `Não foi possível encontrar o endereço de ${host}.`);
  }
  if (!options.allowPrivate && addresses.some(isForbiddenAddress)) {
    throw new UnsafeWebhookUrl(
      'forbidden_address',
      'Esta URL aponta para um endereço interno, privado ou de loopback, que não é permitido.',
    );
  }
  const address = addresses[0] as string;
  return { url, address, family: isIP(address) === 6 ? 6 : 4 };
}
