/**
 * An SMTP sink on loopback that accepts every message, counts it and discards it.
 *
 *   npx tsx bench/smtp-sink.ts [port] [lean]      standalone: prints accepted/s every second
 *   fork('bench/smtp-sink.ts', [port, kind])      child process: sends {port} over IPC, answers 'stats' with counts
 *
 * Two kinds: `smtp-server` (the default: the library the tests' relays use) and `lean` (startLeanSink: the few
 * replies a relay gives a pipelining client, written by hand — a fraction of smtp-server's CPU per message, which on
 * a 2-core box comes off the sender it measures).
 */
import net, { type AddressInfo } from 'node:net';
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

/**
 * An SMTP sink that parses only what it must: command lines (EHLO/HELO, MAIL, RCPT, DATA, RSET, NOOP, QUIT — each
 * answered in order, so a pipelining client's envelope and the next message's, arriving in one write, get their
 * replies in order) and, after 354, the body up to the line holding a lone dot. Counts and discards.
 */
export async function startLeanSink(port = 0): Promise<Awaited<ReturnType<typeof startSink>>> {
  let accepted = 0;
  let bytes = 0;
  const END = Buffer.from('\r\n.\r\n');
  const ANSWERED_OK = new Set(['HELO', 'MAIL', 'RCPT', 'RSET', 'NOOP']);
  const server = net.createServer((socket) => {
    socket.setNoDelay(true);
    let pending: Buffer = Buffer.alloc(0);
    let inData = false;
    socket.write('220 sink ESMTP\r\n');
    socket.on('error', () => socket.destroy());
    socket.on('data', (chunk: Buffer) => {
      pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
      let replies = '';
      for (;;) {
        if (inData) {
          // The body ends at CRLF.CRLF; the DATA command's own CRLF counts as the first line break.
          const end = pending.indexOf(END);
          const atStart = pending.length >= 3 && pending[0] === 0x2e && pending[1] === 0x0d && pending[2] === 0x0a;
          if (atStart) {
            pending = pending.subarray(3);
          } else if (end >= 0) {
            bytes += end + 2;
            pending = pending.subarray(end + END.length);
          } else {
            // Keep the tail that may hold the start of the terminator.
            const keep = Math.min(pending.length, END.length - 1);
            bytes += pending.length - keep;
            pending = Buffer.from(pending.subarray(pending.length - keep));
            break;
          }
          inData = false;
          accepted++;
          replies += '250 2.0.0 OK\r\n';
          continue;
        }
        const lineEnd = pending.indexOf('\r\n');
        if (lineEnd < 0) break;
        const verb = pending.subarray(0, Math.min(lineEnd, 4)).toString('latin1').toUpperCase();
        pending = pending.subarray(lineEnd + 2);
        if (verb === 'EHLO')
          replies += '250-sink\r\n250-PIPELINING\r\n250-8BITMIME\r\n250-SMTPUTF8\r\n250 SIZE 52428800\r\n';
        else if (verb === 'DATA') {
          replies += '354 End data with <CR><LF>.<CR><LF>\r\n';
          inData = true;
        } else if (verb === 'QUIT') {
          socket.end(`${replies}221 2.0.0 Bye\r\n`);
          return;
        } else if (ANSWERED_OK.has(verb)) replies += '250 2.0.0 OK\r\n';
        else replies += '502 5.5.2 Command not implemented\r\n';
      }
      if (replies) socket.write(replies);
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
  const cpu0 = process.cpuUsage();
  return {
    port: (server.address() as AddressInfo).port,
    stats: () => {
      const cpu = process.cpuUsage(cpu0);
      return { accepted, bytes, cpuMicros: cpu.user + cpu.system };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const isMain = process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!);
if (isMain) {
  const port = Number(process.argv[2] ?? 0);
  const sink = process.argv[3] === 'lean' ? await startLeanSink(port) : await startSink(port);
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
