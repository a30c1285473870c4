import { createSocket, type Socket } from 'node:dgram';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDnsResolver } from './dns';

/**
 * A minimal authoritative DNS server on loopback (UDP, RFC 1035 wire format): enough to prove the resolver
 * asks the configured server and reads TXT, CNAME and A answers, and reads "no such name" as empty.
 */
const ZONE: Record<string, { type: number; data: Buffer }[]> = {
  'exemplo.com.br': [
    { type: 16, data: txt(['v=spf1 include:_spf.carteiro.local', ' ~all']) },
    { type: 1, data: Buffer.from([127, 0, 0, 7]) },
  ],
  'em.exemplo.com.br': [{ type: 5, data: name('bounces.carteiro.local') }],
};

function name(text: string): Buffer {
  const parts = text.split('.').map((label) => Buffer.concat([Buffer.from([label.length]), Buffer.from(label)]));
  return Buffer.concat([...parts, Buffer.from([0])]);
}
function txt(strings: string[]): Buffer {
  return Buffer.concat(strings.map((s) => Buffer.concat([Buffer.from([s.length]), Buffer.from(s)])));
}
function readQuestion(query: Buffer): { qname: string; qtype: number; end: number } {
  const labels: string[] = [];
  let offset = 12;
  while (query.readUInt8(offset) !== 0) {
    const length = query.readUInt8(offset);
    labels.push(query.subarray(offset + 1, offset + 1 + length).toString());
    offset += length + 1;
  }
  return { qname: labels.join('.').toLowerCase(), qtype: query.readUInt16BE(offset + 1), end: offset + 5 };
}

let server: Socket;
let address = '';

beforeAll(async () => {
  server = createSocket('udp4');
  server.on('message', (query, peer) => {
    const { qname, qtype, end } = readQuestion(query);
    const records = ZONE[qname];
    const answers = (records ?? []).filter((r) => r.type === qtype);
    const header = Buffer.alloc(12);
    query.copy(header, 0, 0, 2);
    header.writeUInt16BE(0x8400 | (records ? 0 : 3), 2); // response, authoritative; NXDOMAIN for unknown names
    header.writeUInt16BE(1, 4);
    header.writeUInt16BE(answers.length, 6);
    const body = answers.map((r) => {
      const fixed = Buffer.alloc(10);
      fixed.writeUInt16BE(r.type, 0);
      fixed.writeUInt16BE(1, 2);
      fixed.writeUInt32BE(60, 4);
      fixed.writeUInt16BE(r.data.length, 8);
      return Buffer.concat([Buffer.from([0xc0, 12]), fixed, r.data]);
    });
    server.send(Buffer.concat([header, query.subarray(12, end), ...body]), peer.port, peer.address);
  });
  await new Promise<void>((resolve) => server.bind(0, '127.0.0.1', resolve));
  address = `127.0.0.1:${server.address().port}`;
});
afterAll(() => server.close());

describe('createDnsResolver', () => {
  it('asks the configured server and joins the strings of a TXT record', async () => {
    const dns = createDnsResolver({ servers: [address] });
    expect(await dns.txt('Exemplo.com.br.')).toEqual(['v=spf1 include:_spf.carteiro.local ~all']);
  });

  it('reads CNAME targets and addresses', async () => {
    const dns = createDnsResolver({ servers: [address] });
    expect(await dns.cname('em.exemplo.com.br')).toEqual(['bounces.carteiro.local']);
    expect(await dns.addresses('exemplo.com.br')).toEqual(['127.0.0.7']);
  });

  it('answers [] for a name that does not exist or has no record of that type', async () => {
    const dns = createDnsResolver({ servers: [address] });
    expect(await dns.txt('nada.exemplo.com.br')).toEqual([]);
    expect(await dns.cname('exemplo.com.br')).toEqual([]);
  });
});
