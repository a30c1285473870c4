/**
 * One client connection to the relay: connect (plain or implicit TLS), greeting, EHLO (HELO fallback),
 * opportunistic or required STARTTLS, AUTH PLAIN/LOGIN, then a FIFO of expected replies so commands can be
 * pipelined (RFC 2920). Replies never reject: a lost connection or a timeout resolves every pending reply with
 * code 0 and the reason, which the pool turns into a 'temporary' outcome.
 */
import net from 'node:net';
import tls from 'node:tls';
import { lostReply, ReplyParser, type SmtpReply } from './reply';

export interface SmtpConnectionOptions {
  host: string;
  port: number;
  /** Implicit TLS (port 465). */
  secure?: boolean;
  /** 'opportunistic' (default): upgrade when offered; 'required': fail without it; 'never'. */
  startTls?: 'opportunistic' | 'required' | 'never';
  /** Extra TLS options (ca, rejectUnauthorized, servername…). */
  tls?: tls.ConnectionOptions;
  auth?: { user: string; pass: string; method?: 'PLAIN' | 'LOGIN' };
  /** EHLO name (the sending host's public name); default 'localhost'. */
  clientName?: string;
  connectTimeoutMs?: number;
  /** Longest wait for any reply (including the final reply after the data). */
  replyTimeoutMs?: number;
  /** An idle connection is closed (QUIT) after this long. */
  idleTimeoutMs?: number;
}

function uncork(socket: net.Socket): void {
  socket.uncork();
}

export class SmtpError extends Error {
  constructor(
    message: string,
    readonly reply: SmtpReply,
  ) {
    super(message);
  }
}

export class SmtpConnection {
  private socket: net.Socket | null = null;
  private parser = new ReplyParser();
  private pending: ((reply: SmtpReply) => void)[] = [];
  private last: Promise<SmtpReply> = Promise.resolve(lostReply('nothing sent'));
  private lostReason: string | null = null;
  private readonly replyTimeoutMs: number;
  private readonly idleTimeoutMs: number;
  pipelining = false;
  capabilities = new Set<string>();
  authMethods = new Set<string>();
  /** Messages started on this connection (for maxMessagesPerConnection). */
  started = 0;

  constructor(private readonly options: SmtpConnectionOptions) {
    this.replyTimeoutMs = options.replyTimeoutMs ?? 60_000;
    this.idleTimeoutMs = options.idleTimeoutMs ?? 30_000;
  }

  get closed(): boolean {
    return this.lostReason !== null;
  }

  get inFlight(): number {
    return this.pending.length;
  }

  /** Connects and prepares the session; throws `SmtpError` (with the reply) when it cannot. */
  async open(): Promise<void> {
    const o = this.options;
    await this.connect(
      () =>
        o.secure
          ? tls.connect({ host: o.host, port: o.port, servername: net.isIP(o.host) ? undefined : o.host, ...o.tls })
          : net.connect({ host: o.host, port: o.port }),
      o.secure ? 'secureConnect' : 'connect',
    );
    await this.expectOk(this.expect(), 'greeting');
    await this.hello();
    const mode = o.startTls ?? 'opportunistic';
    if (!o.secure && mode !== 'never') {
      if (this.capabilities.has('STARTTLS')) {
        await this.expectOk(this.command('STARTTLS'), 'STARTTLS');
        await this.upgrade();
        await this.hello();
      } else if (mode === 'required') {
        throw new SmtpError('relay does not offer STARTTLS', lostReply('STARTTLS required but not offered'));
      }
    }
    if (o.auth) await this.authenticate(o.auth);
  }

  private connect(create: () => net.Socket, readyEvent: 'connect' | 'secureConnect'): Promise<void> {
    return new Promise((resolve, reject) => {
      const socket = create();
      const timer = setTimeout(
        () => socket.destroy(new Error('connect timeout')),
        this.options.connectTimeoutMs ?? 15_000,
      );
      const onError = (err: Error) => {
        clearTimeout(timer);
        reject(new SmtpError(`connect failed: ${err.message}`, lostReply(`connect failed: ${err.message}`)));
      };
      socket.once('error', onError);
      socket.once(readyEvent, () => {
        clearTimeout(timer);
        socket.off('error', onError);
        this.attach(socket);
        resolve();
      });
    });
  }

  private attach(socket: net.Socket) {
    this.socket = socket;
    socket.setNoDelay(true);
    socket.setTimeout(this.replyTimeoutMs);
    socket.on('data', (chunk: Buffer) => {
      for (const reply of this.parser.push(chunk)) {
        const resolve = this.pending.shift();
        if (resolve) resolve(reply);
      }
      if (this.pending.length === 0) socket.setTimeout(this.idleTimeoutMs);
    });
    socket.on('timeout', () => {
      if (this.pending.length > 0) this.lose(`timeout: no reply within ${this.replyTimeoutMs} ms`);
      else void this.quit();
    });
    socket.on('error', (err) => this.lose(`connection error: ${err.message}`));
    socket.on('close', () => this.lose('connection closed by the relay before the reply'));
  }

  private async upgrade(): Promise<void> {
    const plain = this.socket!;
    plain.removeAllListeners('data');
    plain.removeAllListeners('timeout');
    plain.removeAllListeners('error');
    plain.removeAllListeners('close');
    const o = this.options;
    await this.connect(
      () => tls.connect({ socket: plain, servername: net.isIP(o.host) ? undefined : o.host, ...o.tls }),
      'secureConnect',
    ).catch((err) => {
      plain.destroy();
      throw err;
    });
  }

  private async hello(): Promise<void> {
    const name = this.options.clientName ?? 'localhost';
    const ehlo = await this.command(`EHLO ${name}`);
    this.capabilities.clear();
    this.authMethods.clear();
    if (ehlo.code === 250) {
      for (const line of ehlo.text.split('\n').slice(1)) {
        const words = line
          .slice(4)
          .trim()
          .toUpperCase()
          .split(/[\s=]+/);
        this.capabilities.add(words[0]!);
        if (words[0] === 'AUTH') for (const method of words.slice(1)) this.authMethods.add(method);
      }
      this.pipelining = this.capabilities.has('PIPELINING');
      return;
    }
    if (ehlo.code === 0) throw new SmtpError('EHLO failed', ehlo);
    await this.expectOk(this.command(`HELO ${name}`), 'HELO');
    this.pipelining = false;
  }

  private async authenticate(auth: { user: string; pass: string; method?: 'PLAIN' | 'LOGIN' }) {
    const method = auth.method ?? (this.authMethods.has('PLAIN') || !this.authMethods.has('LOGIN') ? 'PLAIN' : 'LOGIN');
    const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
    if (method === 'PLAIN') {
      await this.expectOk(this.command(`AUTH PLAIN ${b64(`\0${auth.user}\0${auth.pass}`)}`), 'AUTH');
      return;
    }
    const first = await this.command('AUTH LOGIN');
    if (first.code !== 334) throw new SmtpError(`AUTH failed: ${first.text}`, first);
    const second = await this.command(b64(auth.user));
    if (second.code !== 334) throw new SmtpError(`AUTH failed: ${second.text}`, second);
    await this.expectOk(this.command(b64(auth.pass)), 'AUTH');
  }

  private async expectOk(promise: Promise<SmtpReply>, step: string): Promise<SmtpReply> {
    const reply = await promise;
    if (reply.code < 200 || reply.code >= 400) {
      this.destroy(`${step} failed`);
      throw new SmtpError(`${step} failed: ${reply.text}`, reply);
    }
    return reply;
  }

  /** Writes raw bytes (commands or dot-stuffed data); no reply is registered. */
  write(data: string | Buffer): void {
    if (this.socket && !this.closed) this.socket.write(data);
  }

  /**
   * Writes several chunks in one system call. The socket stays corked until the current microtasks have run,
   * so what the pool writes next in the same turn (the next message's pipelined envelope) joins that write.
   */
  writeAll(chunks: (string | Buffer)[]): void {
    const socket = this.socket;
    if (!socket || this.closed) return;
    socket.cork();
    for (const chunk of chunks) socket.write(chunk);
    process.nextTick(uncork, socket);
  }

  /** Registers the next expected reply (FIFO, in write order). */
  expect(): Promise<SmtpReply> {
    if (this.lostReason !== null) return Promise.resolve(lostReply(this.lostReason));
    if (this.pending.length === 0) this.socket?.setTimeout(this.replyTimeoutMs);
    this.last = new Promise((resolve) => this.pending.push(resolve));
    return this.last;
  }

  command(line: string): Promise<SmtpReply> {
    this.write(`${line}\r\n`);
    return this.expect();
  }

  /** Resolves when every reply registered so far has arrived (or was lost). */
  async drain(): Promise<void> {
    if (this.pending.length > 0) await this.last;
  }

  /** Polite close: waits for outstanding replies, sends QUIT, ends the socket. */
  async quit(): Promise<void> {
    if (this.closed || !this.socket) return;
    const socket = this.socket;
    const bye = this.command('QUIT');
    const timer = setTimeout(() => this.destroy('QUIT timeout'), 2_000);
    await bye;
    clearTimeout(timer);
    this.lostReason ??= 'connection closed (QUIT)';
    socket.end();
  }

  destroy(reason: string): void {
    this.lose(reason);
    this.socket?.destroy();
  }

  private lose(reason: string) {
    if (this.lostReason === null) this.lostReason = reason;
    const waiting = this.pending;
    this.pending = [];
    const reply = lostReply(this.lostReason);
    for (const resolve of waiting) resolve(reply);
    if (this.socket && !this.socket.destroyed && reason !== 'connection closed (QUIT)') this.socket.destroy();
  }
}
