/**
 * An SMTP sink on loopback that accepts every message, counts it and discards it.
 *
 *   npx tsx bench/smtp-sink.ts [port]      standalone: prints accepted/s every second
 *   fork('bench/smtp-sink.ts')             child process: sends {port} over IPC, answers 'stats' with counts
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface SinkStats {
  accepted: number;
  bytes: number;
  cpuMicros: number;
}

export async function startSink(
  port = 0,
): Promise<{ port: number; stats: () => SinkStats; close: () => Promise<void> }> {
  let accepted = 0;
  let bytes = 0;
  const server = new SMTPServer({
    authOptional: true,
    hideSTARTTLS: true,
    disableReverseLookup: true,
    logger: false,
    maxClients: 1000,
    onData(stream, _session, callback) {
      stream.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
      });
      stream.on('end', () => {
        accepted++;
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
  const cpu0 = process.cpuUsage();
  return {
    port: (server.server.address() as AddressInfo).port,
    stats: () => {
      const cpu = process.cpuUsage(cpu0);
      return { accepted, bytes, cpuMicros: cpu.user + cpu.system };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const isMain = process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!);
if (isMain) {
  const sink = await startSink(Number(process.argv[2] ?? 0));
  if (process.send) {
    process.send({ type: 'ready', port: sink.port });
    process.on('message', (msg: { type: string }) => {
      if (msg.type === 'stats') process.send?.({ type: 'stats', ...sink.stats() });
      if (msg.type === 'exit') void sink.close().then(() => process.exit(0));
    });
  } else {
    console.log(`smtp sink on 127.0.0.1:${sink.port}`);
    let last = 0;
    setInterval(() => {
      const { accepted } = sink.stats();
      if (accepted !== last) console.log(`accepted ${accepted} (${accepted - last}/s)`);
      last = accepted;
    }, 1000);
  }
}
