import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import { SMTPServer } from 'smtp-server';

export interface CaughtMail {
  envelopeFrom: string;
  envelopeTo: string[];
  raw: string;
}

export interface MailCatcher {
  port: number;
  close(): Promise<void>;
}

const MAX_MESSAGE_BYTES = 25 * 1024 * 1024;

/**
 * The built-in mail catcher: an SMTP server on loopback that hands every message it receives to `store`
 * (the dev mailbox). Development only: it accepts any sender and recipient, without authentication.
 */
export async function startMailCatcher(options: {
  port: number;
  logger: Logger;
  store: (mail: CaughtMail) => Promise<void>;
}): Promise<MailCatcher> {
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    size: MAX_MESSAGE_BYTES,
    logger: false,
    banner: 'Carteiro mail catcher',
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('error', callback);
      stream.on('end', () => {
        const envelope = session.envelope;
        const mail: CaughtMail = {
          envelopeFrom: envelope.mailFrom ? envelope.mailFrom.address : '',
          envelopeTo: envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        };
        options.store(mail).then(
          () => callback(),
          (error: Error) => {
            options.logger.error({ err: error }, 'mail catcher could not store a message');
            callback(error);
          },
        );
      });
    },
  });
  server.on('error', (error) => options.logger.error({ err: error }, 'mail catcher error'));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.server.address() as AddressInfo).port;
  options.logger.info({ port }, 'mail catcher listening on 127.0.0.1');
  return {
    port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
