import { Resolver } from 'node:dns/promises';

/**
 * The one DNS resolver of the server: sender-domain checks (TXT/CNAME) and the SSRF guard of outbound webhooks
 * (A/AAAA) go through it. Its servers come from `DNS_SERVERS` (config), so tests point it at a DNS server on
 * loopback instead of the internet; empty means the system's resolvers.
 */
export interface DnsResolver {
  /** TXT records, each record's strings joined (RFC 7208 §3.3); [] when the name or the type does not exist. */
  txt(name: string): Promise<string[]>;
  /** CNAME targets, lower case without the trailing dot; [] when none. */
  cname(name: string): Promise<string[]>;
  /** MX exchanges by preference; [] when none. */
  mx(name: string): Promise<{ exchange: string; priority: number }[]>;
  /** Every A and AAAA address of a host name; [] when it has none. */
  addresses(name: string): Promise<string[]>;
}

/** Answers that mean "no such record" rather than "the look-up failed". */
const NOT_FOUND = new Set(['ENOTFOUND', 'ENODATA', 'NXDOMAIN', 'ENONAME']);

async function orEmpty<T>(lookup: Promise<T[]>): Promise<T[]> {
  try {
    return await lookup;
  } catch (error) {
    if (NOT_FOUND.has((error as NodeJS.ErrnoException).code ?? '')) return [];
    throw error;
  }
}

/** `servers`: "127.0.0.1", "127.0.0.1:5353" or "[::1]:53"; [] keeps the system's. `timeoutMs` per try. */
export function createDnsResolver(options: { servers: string[]; timeoutMs?: number; tries?: number }): DnsResolver {
  const resolver = new Resolver({ timeout: options.timeoutMs ?? 3_000, tries: options.tries ?? 2 });
  if (options.servers.length > 0) resolver.setServers(options.servers);
  const bare = (name: string) => name.trim().replace(/\.$/, '').toLowerCase();
  return {
    txt: async (name) => (await orEmpty(resolver.resolveTxt(bare(name)))).map((parts) => parts.join('')),
    cname: async (name) => (await orEmpty(resolver.resolveCname(bare(name)))).map((target) => bare(target)),
    mx: async (name) =>
      (await orEmpty(resolver.resolveMx(bare(name))))
        .map((r) => ({ exchange: bare(r.exchange), priority: r.priority }))
        .sort((a, b) => a.priority - b.priority),
    addresses: async (name) => {
      const [v4, v6] = await Promise.all([
        orEmpty(resolver.resolve4(bare(name))),
        orEmpty(resolver.resolve6(bare(name))),
      ]);
      return [...v4, ...v6];
    },
  };
}
