import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/**
 * A loopback SMTP server that keeps only how many times each recipient was delivered (no message bodies), so a
 * run of tens of thousands of messages stays small in memory.
 */
export interface CountingSmtpSink {
  url: string;
  /** Accepted deliveries per recipient (lower-cased). */
  deliveries: Map<string, number>;
  /** Recipients whose address starts with `prefix`, with their delivery counts. */
  deliveredTo(prefix: string): Map<string, number>;
  close(): Promise<void>;
}

export async function startCountingSmtpSink(): Promise<CountingSmtpSink> {
  const deliveries = new Map<string, number>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    size: 10 * 1024 * 1024,
    onData(stream, session, callback) {
      stream.resume();
      stream.on('end', () => {
        for (const rcpt of session.envelope.rcptTo) {
          const to = rcpt.address.toLowerCase();
          deliveries.set(to, (deliveries.get(to) ?? 0) + 1);
        }
        callback();
      });
    },
  });
  // A worker killed mid-session resets its connection: that is the test, not a sink failure.
  server.on('error', () => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    deliveries,
    deliveredTo(prefix) {
      const counts = new Map<string, number>();
      for (const [to, n] of deliveries) if (to.startsWith(prefix)) counts.set(to, n);
      return counts;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
