import { createSocket, type Socket } from 'node:dgram';

/**
 * A small authoritative DNS server on loopback (UDP, RFC 1035 wire format) whose zone a test edits while it
 * runs: TXT (long values split into 255-byte strings), CNAME (followed for other types, like a recursive
 * resolver would), A, AAAA and MX. Unknown names answer NXDOMAIN; known names without that type, no answers.
 * Point the app at it with DNS_SERVERS=`server.address`.
 */
export interface TestDnsServer {
  /** `127.0.0.1:<port>` */
  address: string;
  port: number;
  setTxt(name: string, values: string[]): void;
  setCname(name: string, target: string): void;
  setA(name: string, addresses: string[]): void;
  setMx(name: string, exchanges: { exchange: string; priority: number }[]): void;
  remove(name: string, type?: 'TXT' | 'CNAME' | 'A' | 'MX'): void;
  close(): Promise<void>;
}

const TYPE = { A: 1, CNAME: 5, MX: 15, TXT: 16, AAAA: 28 } as const;

interface Rr {
  type: number;
  data: Buffer;
  /** For CNAME: the target, to follow. */
  target?: string;
}

function encodeName(text: string): Buffer {
  const labels = text
    .replace(/\.$/, '')
    .split('.')
    .filter(Boolean)
    .map((label) => Buffer.concat([Buffer.from([label.length]), Buffer.from(label, 'ascii')]));
  return Buffer.concat([...labels, Buffer.from([0])]);
}

function encodeTxt(value: string): Buffer {
  const bytes = Buffer.from(value, 'utf8');
  const parts: Buffer[] = [];
  for (let i = 0; i < bytes.length || i === 0; i += 255) {
    const chunk = bytes.subarray(i, i + 255);
    parts.push(Buffer.from([chunk.length]), chunk);
    if (bytes.length === 0) break;
  }
  return Buffer.concat(parts);
}

function readQuestion(query: Buffer): { qname: string; qtype: number; end: number } {
  const labels: string[] = [];
  let offset = 12;
  while (query.readUInt8(offset) !== 0) {
    const length = query.readUInt8(offset);
    labels.push(query.subarray(offset + 1, offset + 1 + length).toString('ascii'));
    offset += length + 1;
  }
  return { qname: labels.join('.').toLowerCase(), qtype: query.readUInt16BE(offset + 1), end: offset + 5 };
}

const norm = (name: string) => name.trim().replace(/\.$/, '').toLowerCase();

export async function startTestDnsServer(): Promise<TestDnsServer> {
  const zone = new Map<string, Rr[]>();
  const set = (name: string, type: number, records: Rr[]) => {
    const key = norm(name);
    const kept = (zone.get(key) ?? []).filter((r) => r.type !== type);
    zone.set(key, [...kept, ...records]);
  };

  function answersFor(name: string, qtype: number, depth = 0): { owner: string; rr: Rr }[] {
    const records = zone.get(name) ?? [];
    const direct = records.filter((r) => r.type === qtype);
    if (direct.length > 0 || qtype === TYPE.CNAME || depth > 5) return direct.map((rr) => ({ owner: name, rr }));
    const cname = records.find((r) => r.type === TYPE.CNAME);
    if (!cname?.target) return [];
    return [{ owner: name, rr: cname }, ...answersFor(cname.target, qtype, depth + 1)];
  }

  const socket: Socket = createSocket('udp4');
  socket.on('message', (query, peer) => {
    const { qname, qtype, end } = readQuestion(query);
    const answers = answersFor(qname, qtype);
    const exists = zone.has(qname);
    const header = Buffer.alloc(12);
    query.copy(header, 0, 0, 2);
    // Response, authoritative, recursion desired copied, recursion available; NXDOMAIN for unknown names.
    header.writeUInt16BE(0x8580 | (query.readUInt16BE(2) & 0x0100) | (exists ? 0 : 3), 2);
    header.writeUInt16BE(1, 4);
    header.writeUInt16BE(answers.length, 6);
    const body = answers.map(({ owner, rr }) => {
      const fixed = Buffer.alloc(10);
      fixed.writeUInt16BE(rr.type, 0);
      fixed.writeUInt16BE(1, 2);
      fixed.writeUInt32BE(60, 4);
      fixed.writeUInt16BE(rr.data.length, 8);
      return Buffer.concat([encodeName(owner), fixed, rr.data]);
    });
    socket.send(Buffer.concat([header, query.subarray(12, end), ...body]), peer.port, peer.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const port = socket.address().port;
  return {
    address: `127.0.0.1:${port}`,
    port,
    setTxt: (name, values) =>
      set(
        name,
        TYPE.TXT,
        values.map((v) => ({ type: TYPE.TXT, data: encodeTxt(v) })),
      ),
    setCname: (name, target) =>
      set(name, TYPE.CNAME, [{ type: TYPE.CNAME, data: encodeName(target), target: norm(target) }]),
    setA: (name, addresses) =>
      set(
        name,
        TYPE.A,
        addresses.map((a) => ({ type: TYPE.A, data: Buffer.from(a.split('.').map(Number)) })),
      ),
    setMx: (name, exchanges) =>
      set(
        name,
        TYPE.MX,
        exchanges.map((mx) => {
          const pref = Buffer.alloc(2);
          pref.writeUInt16BE(mx.priority, 0);
          return { type: TYPE.MX, data: Buffer.concat([pref, encodeName(mx.exchange)]) };
        }),
      ),
    remove(name, type) {
      const key = norm(name);
      if (!type) {
        zone.delete(key);
        return;
      }
      const kept = (zone.get(key) ?? []).filter((r) => r.type !== TYPE[type]);
      if (kept.length === 0) zone.delete(key);
      else zone.set(key, kept);
    },
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}
