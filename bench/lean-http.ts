/**
 * A lean HTTP/1.1 keep-alive client for the benches: one request at a time per connection, the request written
 * as one buffer, the reply read by its status line and its Content-Length (or chunked) body — nothing else is
 * parsed. node:http's client spent ~146 µs of CPU per call on this 2-core box (docs/benchmarks.md, session 17),
 * a tenth of the box's CPU per single send, taken from the server it measures; this one does the same wire work
 * (loopback TCP, the same headers and bodies) for a fraction of it. Bench code, not product code.
 */
import net from 'node:net';
import { performance } from 'node:perf_hooks';

export interface LeanReply {
  status: number;
  body: Buffer;
  ms: number;
}

interface Pending {
  resolve(reply: LeanReply): void;
  reject(error: Error): void;
  t0: number;
}

const HEADER_END = Buffer.from('\r\n\r\n');

/** One keep-alive connection; `request` must not be called again before its previous promise settled. */
class LeanConnection {
  private buffered: Buffer = Buffer.alloc(0);
  private pending: Pending | null = null;
  private failed: Error | null = null;

  private constructor(private readonly socket: net.Socket) {
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    const fail = (error: Error) => {
      this.failed = error;
      this.pending?.reject(error);
      this.pending = null;
    };
    socket.on('error', fail);
    socket.on('close', () => fail(new Error('connection closed by the server')));
  }

  static open(port: number): Promise<LeanConnection> {
    return new Promise((resolve, reject) => {
      const socket = net.connect({ host: '127.0.0.1', port }, () => {
        socket.off('error', reject);
        resolve(new LeanConnection(socket));
      });
      socket.once('error', reject);
    });
  }

  get usable(): boolean {
    return this.failed === null;
  }

  request(head: string, payload: Buffer | null): Promise<LeanReply> {
    if (this.failed) return Promise.reject(this.failed);
    return new Promise((resolve, reject) => {
      this.pending = { resolve, reject, t0: performance.now() };
      this.socket.write(payload ? Buffer.concat([Buffer.from(head), payload]) : head);
    });
  }

  close(): void {
    this.socket.destroy();
  }

  private onData(chunk: Buffer): void {
    this.buffered = this.buffered.length === 0 ? chunk : Buffer.concat([this.buffered, chunk]);
    const headerEnd = this.buffered.indexOf(HEADER_END);
    if (headerEnd < 0 || !this.pending) return;
    const head = this.buffered.subarray(0, headerEnd).toString('latin1');
    const status = Number(head.slice(9, 12));
    const bodyStart = headerEnd + 4;
    const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
    let body: Buffer;
    let end: number;
    if (length) {
      end = bodyStart + Number(length[1]);
      if (this.buffered.length < end) return;
      body = this.buffered.subarray(bodyStart, end);
    } else if (/\r\ntransfer-encoding:\s*chunked/i.test(head)) {
      const parts: Buffer[] = [];
      let at = bodyStart;
      for (;;) {
        const lineEnd = this.buffered.indexOf('\r\n', at);
        if (lineEnd < 0) return;
        const size = Number.parseInt(this.buffered.subarray(at, lineEnd).toString('latin1'), 16);
        if (this.buffered.length < lineEnd + 2 + size + 2) return;
        if (size === 0) {
          end = lineEnd + 4;
          break;
        }
        parts.push(this.buffered.subarray(lineEnd + 2, lineEnd + 2 + size));
        at = lineEnd + 2 + size + 2;
      }
      body = Buffer.concat(parts);
    } else {
      end = bodyStart;
      body = Buffer.alloc(0);
    }
    this.buffered = this.buffered.subarray(end);
    const { resolve, t0 } = this.pending;
    this.pending = null;
    resolve({ status, body, ms: performance.now() - t0 });
  }
}

/** Keep-alive connections to one port, handed out one request at a time (a connection per request in flight). */
export class LeanHttpClient {
  private readonly idle: LeanConnection[] = [];
  private readonly all = new Set<LeanConnection>();

  constructor(private readonly port: number) {}

  async request(
    method: 'GET' | 'POST',
    path: string,
    headers: Record<string, string>,
    payload: Buffer | null,
  ): Promise<LeanReply> {
    let connection = this.idle.pop();
    while (connection && !connection.usable) {
      this.all.delete(connection);
      connection = this.idle.pop();
    }
    if (!connection) {
      connection = await LeanConnection.open(this.port);
      this.all.add(connection);
    }
    let head = `${method} ${path} HTTP/1.1\r\nhost: 127.0.0.1:${this.port}\r\n`;
    for (const [name, value] of Object.entries(headers)) head += `${name}: ${value}\r\n`;
    if (payload) head += `content-length: ${payload.length}\r\n`;
    head += '\r\n';
    try {
      return await connection.request(head, payload);
    } finally {
      if (connection.usable) this.idle.push(connection);
      else this.all.delete(connection);
    }
  }

  close(): void {
    for (const connection of this.all) connection.close();
    this.all.clear();
    this.idle.length = 0;
  }
}
