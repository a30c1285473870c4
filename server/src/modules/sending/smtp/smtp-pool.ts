/**
 * A pool of long-lived pipelining SMTP connections to one relay, implementing `MailTransport`.
 *
 * Messages from every `deliver()` call join one queue; up to `connections` slots take them in order. On a
 * connection that advertises PIPELINING a message costs one round trip: MAIL FROM + RCPT TO + DATA go out in
 * one write, the dot-stuffed body follows the 354, and the next message's envelope is written without waiting
 * for the previous message's final reply (so two messages are in flight per connection). Without PIPELINING
 * the slot falls back to lock-step.
 *
 * Outcomes (see `transport.ts`): 2xx sent, 4xx temporary, 5xx permanent (5.7.x policy). A message whose final
 * reply never came (connection lost, timeout) is temporary — the relay may or may not have accepted it, which
 * is the in-flight window the engine documents. After a rejected MAIL/RCPT/DATA the slot sends RSET. A slot
 * whose connection dropped reconnects for its next message; when no slot can connect (relay down, AUTH
 * refused) every queued message is answered 'temporary' with the reason, so `deliver()` always settles.
 */
import type { DeliveryOutcome, MailTransport, WireMessage } from '../transport';
import { isPositive, lostReply, outcomeOf, type SmtpReply } from './reply';
import { SmtpConnection, type SmtpConnectionOptions, SmtpError } from './smtp-connection';
import { TokenBucket } from './token-bucket';

export interface SmtpPoolOptions extends SmtpConnectionOptions {
  /** Parallel connections to the relay; default 4. */
  connections?: number;
  /** QUIT and reconnect after this many messages on one connection; default unlimited. */
  maxMessagesPerConnection?: number;
  /** Messages per second for the whole pool (token bucket); default unlimited. */
  rateLimit?: number;
  /** Token bucket capacity; default rateLimit / 10. */
  rateBurst?: number;
  /** Clock for the rate limiter (tests). */
  now?: () => number;
}

interface Job {
  message: WireMessage;
  resolve: (outcome: DeliveryOutcome) => void;
}

const DOT_CRLF = Buffer.from('.\r\n', 'latin1');
const CRLF_DOT_CRLF = Buffer.from('\r\n.\r\n', 'latin1');
const LF_DOT = Buffer.from('\n.', 'latin1');
const UNSAFE_ADDRESS = /[\s<>]/;

/** RFC 5321 §4.5.2 transparency: doubles a leading "." on every line; returns `raw` itself when none. */
export function dotStuff(raw: Buffer): Buffer {
  let at = raw.indexOf(LF_DOT);
  const leading = raw[0] === 0x2e;
  if (at < 0 && !leading) return raw;
  const parts: Buffer[] = [];
  let from = 0;
  if (leading) {
    parts.push(Buffer.from('.', 'latin1'));
  }
  while (at >= 0) {
    parts.push(raw.subarray(from, at + 2), Buffer.from('.', 'latin1'));
    from = at + 2;
    at = raw.indexOf(LF_DOT, from);
  }
  parts.push(raw.subarray(from));
  return Buffer.concat(parts);
}

/** The data section terminator for `raw`: ".\r\n" when it already ends with CRLF. */
function terminator(raw: Buffer): Buffer {
  return raw.length >= 2 && raw[raw.length - 2] === 0x0d && raw[raw.length - 1] === 0x0a ? DOT_CRLF : CRLF_DOT_CRLF;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class SmtpPool implements MailTransport {
  private readonly queue: Job[] = [];
  private queueHead = 0;
  private readonly slots: (SmtpConnection | null)[];
  private readonly runners: (Promise<void> | null)[];
  /** A slot whose connect failed is not retried before this time (ms, performance.now()). */
  private readonly retryAt: number[];
  private connecting = 0;
  private closing = false;
  private readonly bucket: TokenBucket | null;
  private readonly maxPerConnection: number;

  constructor(private readonly options: SmtpPoolOptions) {
    const n = Math.max(1, options.connections ?? 4);
    this.slots = new Array(n).fill(null);
    this.runners = new Array(n).fill(null);
    this.retryAt = new Array(n).fill(0);
    this.maxPerConnection = options.maxMessagesPerConnection ?? Number.POSITIVE_INFINITY;
    this.bucket = options.rateLimit
      ? new TokenBucket({ ratePerSecond: options.rateLimit, burst: options.rateBurst, now: options.now })
      : null;
  }

  deliver(batch: WireMessage[]): Promise<DeliveryOutcome[]> {
    if (this.closing) {
      return Promise.resolve(batch.map((m) => outcomeOf(m.id, lostReply('transport closed'))));
    }
    const promises = batch.map(
      (message) => new Promise<DeliveryOutcome>((resolve) => this.queue.push({ message, resolve })),
    );
    this.pump();
    return Promise.all(promises);
  }

  async close(): Promise<void> {
    this.closing = true;
    this.failQueued(lostReply('transport closed'));
    await Promise.all(this.runners);
    await Promise.all(
      this.slots.map(async (conn) => {
        if (!conn || conn.closed) return;
        await conn.drain();
        await conn.quit();
      }),
    );
  }

  private get queued(): number {
    return this.queue.length - this.queueHead;
  }

  private take(): Job | undefined {
    if (this.queueHead >= this.queue.length) return undefined;
    const job = this.queue[this.queueHead]!;
    this.queue[this.queueHead++] = undefined as unknown as Job;
    if (this.queueHead > 1024 && this.queueHead * 2 > this.queue.length) {
      this.queue.splice(0, this.queueHead);
      this.queueHead = 0;
    }
    return job;
  }

  private putBack(job: Job) {
    if (this.queueHead > 0) this.queue[--this.queueHead] = job;
    else this.queue.unshift(job);
  }

  /** Answers every queued message 'temporary': the relay, not the message, failed (even a 535 AUTH refusal). */
  private failQueued(reply: SmtpReply) {
    for (let job = this.take(); job; job = this.take()) {
      job.resolve({ ...outcomeOf(job.message.id, reply), kind: 'temporary', policy: false });
    }
  }

  /** Starts idle slots for the queued messages, slots with an open connection first. */
  private pump() {
    let wanted = this.queued;
    for (const runner of this.runners) if (runner) wanted--;
    if (wanted <= 0) return;
    // Back off from slots that just failed to connect, unless nothing else could take the messages.
    const alive = this.runners.some((r) => r !== null) || this.slots.some((c) => c !== null && !c.closed);
    const now = performance.now();
    const order = this.slots
      .map((conn, i) => ({ i, open: conn !== null && !conn.closed }))
      .filter(({ i }) => this.runners[i] === null && (!alive || this.retryAt[i]! <= now))
      .sort((a, b) => Number(b.open) - Number(a.open));
    for (const { i } of order) {
      if (wanted-- <= 0) break;
      this.runners[i] = this.runSlot(i).finally(() => {
        this.runners[i] = null;
        if (this.queued > 0 && !this.closing) this.pump();
      });
    }
  }

  private async runSlot(slot: number): Promise<void> {
    while (!this.closing) {
      const job = this.take();
      if (!job) return;
      if (this.bucket) {
        const wait = this.bucket.reserve();
        if (wait > 0) await sleep(wait);
      }
      let conn = this.slots[slot];
      if (conn && !conn.closed && conn.started >= this.maxPerConnection) {
        await conn.drain();
        await conn.quit();
        conn = null;
      }
      if (!conn || conn.closed) {
        conn = await this.connect(slot, job);
        if (!conn) return;
      }
      conn.started++;
      if (conn.pipelining) await this.transact(conn, job);
      else await this.transactLockStep(conn, job);
    }
  }

  /** Opens a connection for `slot`; on failure puts `job` back or, when no slot works, fails the queue. */
  private async connect(slot: number, job: Job): Promise<SmtpConnection | null> {
    this.slots[slot] = null;
    const conn = new SmtpConnection(this.options);
    this.connecting++;
    try {
      await conn.open();
      this.connecting--;
      this.retryAt[slot] = 0;
      this.slots[slot] = conn;
      return conn;
    } catch (err) {
      this.connecting--;
      const reply = err instanceof SmtpError ? err.reply : lostReply(String(err));
      this.putBack(job);
      this.retryAt[slot] = performance.now() + 1_000;
      // Other slots are delivering (or still trying): leave the queue to them.
      if (this.healthyCount() > 0 || this.connecting > 0) return null;
      this.failQueued({ ...reply, text: `relay unavailable: ${reply.text}` });
      return null;
    }
  }

  private healthyCount(): number {
    let n = 0;
    for (const conn of this.slots) if (conn && !conn.closed) n++;
    return n;
  }

  private rejectInvalid(job: Job): boolean {
    const { envelopeFrom, recipient, id } = job.message;
    if (!UNSAFE_ADDRESS.test(envelopeFrom) && !UNSAFE_ADDRESS.test(recipient) && recipient.includes('@')) {
      return false;
    }
    job.resolve(outcomeOf(id, { code: 553, enhancedCode: '5.1.3', text: 'invalid address (not sent)' }));
    return true;
  }

  /** Pipelined transaction; returns once the body is written (the final reply settles the job later). */
  private async transact(conn: SmtpConnection, job: Job): Promise<void> {
    if (this.rejectInvalid(job)) return;
    const { message } = job;
    conn.write(`MAIL FROM:<${message.envelopeFrom}>\r\nRCPT TO:<${message.recipient}>\r\nDATA\r\n`);
    const mailP = conn.expect();
    const rcptP = conn.expect();
    const dataP = conn.expect();
    const mail = await mailP;
    const rcpt = await rcptP;
    const data = await dataP;
    if (this.settleEnvelope(conn, job, mail, rcpt, data)) return;
    const body = dotStuff(message.raw);
    conn.writeAll([body, terminator(message.raw)]);
    void conn.expect().then((reply) => job.resolve(outcomeOf(message.id, reply)));
  }

  private async transactLockStep(conn: SmtpConnection, job: Job): Promise<void> {
    if (this.rejectInvalid(job)) return;
    const { message } = job;
    const mail = await conn.command(`MAIL FROM:<${message.envelopeFrom}>`);
    const rcpt = isPositive(mail) ? await conn.command(`RCPT TO:<${message.recipient}>`) : mail;
    const data = isPositive(rcpt) ? await conn.command('DATA') : rcpt;
    if (this.settleEnvelope(conn, job, mail, rcpt, data)) {
      await conn.drain();
      return;
    }
    conn.writeAll([dotStuff(message.raw), terminator(message.raw)]);
    job.resolve(outcomeOf(message.id, await conn.expect()));
  }

  /** Settles the job when the envelope failed (and resets the transaction); false when the body may follow. */
  private settleEnvelope(conn: SmtpConnection, job: Job, mail: SmtpReply, rcpt: SmtpReply, data: SmtpReply): boolean {
    const id = job.message.id;
    if (mail.code === 0 || rcpt.code === 0 || data.code === 0) {
      job.resolve(outcomeOf(id, mail.code === 0 ? mail : rcpt.code === 0 ? rcpt : data));
      return true;
    }
    const failed = !isPositive(mail) ? mail : !isPositive(rcpt) ? rcpt : data.code !== 354 ? data : null;
    if (!failed) return false;
    if (data.code === 354) {
      // DATA was accepted although the envelope failed (RFC 2920 §3.1): end the empty data section.
      conn.write('.\r\n');
      void conn.expect();
    }
    job.resolve(outcomeOf(id, failed));
    conn.write('RSET\r\n');
    void conn.expect();
    return true;
  }
}

export function createSmtpPool(options: SmtpPoolOptions): SmtpPool {
  return new SmtpPool(options);
}
