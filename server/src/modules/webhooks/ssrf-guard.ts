import { BlockList, isIP } from 'node:net';
import type { DnsResolver } from '../../net/dns';

/**
 * Ranges a webhook may never reach (SSRF): loopback, private (RFC 1918, CGNAT, ULA), link-local (incl. the
 * 169.254.169.254 metadata address), unspecified, multicast, reserved/broadcast, documentation/benchmark
 * nets, and the IPv4-mapped/NAT64/6to4 forms checked through the IPv4 they embed.
 */
const blocked = new BlockList();
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
  blocked.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
  ['2001:db8::', 32],
  ['100::', 64],
] as const) {
  blocked.addSubnet(net, prefix, 'ipv6');
}

function embeddedIpv4(address: string): string | null {
  const lower = address.toLowerCase();
  // ::ffff:a.b.c.d, ::a.b.c.d, 64:ff9b::a.b.c.d written with a dotted tail.
  const dotted = lower.match(/^(?:::ffff:|::|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/);
  if (dotted?.[1]) return dotted[1];
  // Hex forms ::ffff:7f00:1 (how URL parsing normalises them).
  const hex = lower.match(/^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/);
  if (hex?.[1] && hex[2]) {
    const hi = Number.parseInt(hex[1], 16);
    const lo = Number.parseInt(hex[2], 16);
    return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  }
  // 6to4 2002:AABB:CCDD::/48 embeds AA.BB.CC.DD.
  const sixToFour = lower.match(/^2002:([0-9a-f]{1,4}):([0-9a-f]{1,4}):/);
  if (sixToFour?.[1] && sixToFour[2]) {
    const hi = Number.parseInt(sixToFour[1], 16);
    const lo = Number.parseInt(sixToFour[2], 16);
    return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  }
  return null;
}

/** True when an IP literal is one a webhook must not reach. */
export function isForbiddenAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family === 6) {
    const v4 = embeddedIpv4(address);
    if (v4) return blocked.check(v4, 'ipv4');
    return blocked.check(address, 'ipv6');
  }
  return true;
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
