import { describe, expect, it } from 'vitest';
import type { DnsResolver } from '../../net/dns';
import { countSpfLookups, dkimPublicKey, ed25519Selector, mergeSpf, newSelector } from './dns-records';
import { decryptSecret, encryptSecret } from './key-encryption';

function zone(records: Record<string, string[]>): DnsResolver {
  return {
    txt: async (name) => records[name] ?? [],
    cname: async () => [],
    mx: async () => [],
    addresses: async () => [],
  };
}

describe('SPF helpers', () => {
  it('merges our include before the all mechanism (or redirect), once', () => {
    expect(mergeSpf('v=spf1 mx include:_spf.google.com ~all', '_spf.carteiro.test')).toBe(
      'v=spf1 mx include:_spf.google.com include:_spf.carteiro.test ~all',
    );
    expect(mergeSpf('v=spf1 a redirect=_spf.outro.test', '_spf.carteiro.test')).toBe(
      'v=spf1 a include:_spf.carteiro.test redirect=_spf.outro.test',
    );
    expect(mergeSpf('v=spf1 ip4:192.0.2.1', '_spf.carteiro.test')).toBe(
      'v=spf1 ip4:192.0.2.1 include:_spf.carteiro.test',
    );
    expect(mergeSpf('v=spf1 include:_spf.carteiro.test -all', '_spf.carteiro.test')).toBe(
      'v=spf1 include:_spf.carteiro.test -all',
    );
  });

  it('counts DNS look-ups recursively (include, redirect, a, mx, ptr, exists), ip4/ip6/all for free', async () => {
    const dns = zone({
      '_spf.google.com': ['v=spf1 include:_netblocks.google.com include:_netblocks2.google.com ~all'],
      '_netblocks.google.com': ['v=spf1 ip4:192.0.2.0/24 ~all'],
      '_netblocks2.google.com': ['v=spf1 ip6:2001:db8::/32 ~all'],
      'loop.test': ['v=spf1 include:loop.test -all'],
    });
    expect(await countSpfLookups(dns, 'v=spf1 ip4:192.0.2.1 -all')).toBe(0);
    expect(await countSpfLookups(dns, 'v=spf1 a mx:mail.test ptr exists:%{i}.x.test -all')).toBe(4);
    expect(await countSpfLookups(dns, 'v=spf1 include:_spf.google.com ~all')).toBe(3);
    expect(await countSpfLookups(dns, 'v=spf1 include:loop.test -all')).toBe(2);
  });

  it('reads the p= of a DKIM record whatever the spacing', () => {
    expect(dkimPublicKey('v=DKIM1; k=rsa; p=AB CD\tEF')).toBe('ABCDEF');
    expect(dkimPublicKey('v=DKIM1;p=XYZ;t=s')).toBe('XYZ');
    expect(dkimPublicKey('v=DKIM1; k=rsa')).toBe('');
  });
});

describe('private key encryption', () => {
  const secret = 'um-segredo-de-teste-com-32-caracteres!!';
  it('round-trips, never stores the clear text, and refuses another secret or a tampered value', () => {
    const stored = encryptSecret(secret, '-----BEGIN PRIVATE KEY-----\nabc\n');
    expect(stored).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(stored).not.toContain('PRIVATE');
    expect(encryptSecret(secret, 'x')).not.toBe(encryptSecret(secret, 'x'));
    expect(decryptSecret(secret, stored)).toBe('-----BEGIN PRIVATE KEY-----\nabc\n');
    expect(() => decryptSecret('outro-segredo-de-teste-com-32-caracteres', stored)).toThrow();
    const [v, iv, tag, data] = stored.split('.');
    const flipped = `${data?.[0] === 'A' ? 'B' : 'A'}${data?.slice(1)}`;
    expect(() => decryptSecret(secret, [v, iv, tag, flipped].join('.'))).toThrow();
  });
});

describe('DKIM selector names', () => {
  it('say which key they hold, more than one letter apart', () => {
    const rsa = newSelector('1a2b3c4d');
    expect(rsa).toBe('carteiro-rsa-1a2b3c4d');
    expect(ed25519Selector(rsa)).toBe('carteiro-ed25519-1a2b3c4d');
  });

  it('keep the names a domain added before was published with', () => {
    expect(ed25519Selector('c1a2b3c4d')).toBe('c1a2b3c4de');
  });
});
