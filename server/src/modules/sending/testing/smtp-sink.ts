import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface SunkMessage {
  from: string;
  to: string;
  raw: Buffer;
}

/**
 * A loopback SMTP server for tests and benchmarks: stores (or just counts) what it accepts; `rcptReply` may
 * refuse a recipient with a 4xx/5xx (per attempt); `down` makes every connection fail with 421.
 */
export interface SmtpSink {
  url: string;
  port: number;
  messages: SunkMessage[];
  count: number;
  /** Recipient attempts seen at RCPT TO, per address. */
  attempts: Map<string, number>;
  rcptReply: ((address: string, attempt: number) => { code: number; message: string } | null) | null;
  down: boolean;
  close(): Promise<void>;
}

export async function startSmtpSink(options: { keep?: boolean } = {}): Promise<SmtpSink> {
  const keep = options.keep ?? true;
  const sink: SmtpSink = {
    url: '',
    port: 0,
    messages: [],
    count: 0,
    attempts: new Map(),
    rcptReply: null,
    down: false,
    close: async () => {},
  };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    size: 10 * 1024 * 1024,
    onConnect(_session, callback) {
      if (sink.down) return callback(Object.assign(new Error('Serviço indisponível'), { responseCode: 421 }));
      callback();
    },
    onRcptTo(address, _session, callback) {
      const email = address.address.toLowerCase();
      const attempt = (sink.attempts.get(email) ?? 0) + 1;
      sink.attempts.set(email, attempt);
      const reply = sink.rcptReply?.(email, attempt);
      if (reply) return callback(Object.assign(new Error(reply.message), { responseCode: reply.code }));
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => {
        if (keep) chunks.push(chunk);
      });
      stream.on('end', () => {
        sink.count += session.envelope.rcptTo.length;
        if (keep) {
          const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
          for (const rcpt of session.envelope.rcptTo) {
            sink.messages.push({ from, to: rcpt.address.toLowerCase(), raw: Buffer.concat(chunks) });
          }
        }
        callback();
      });
    },
  });
  // A client killed mid-session (the crash tests) resets its connection: expected, not a failure.
  server.on('error', () => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  sink.port = (server.server.address() as AddressInfo).port;
  sink.url = `smtp://127.0.0.1:${sink.port}`;
  sink.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return sink;
}
