import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';
import { afterEach, describe, expect, it } from 'vitest';
import { buildMimeMessage, createMessageFrame } from '../mime/build-message';
import type { WireMessage } from '../transport';
import { ReplyParser } from './reply';
import { createSmtpPool, dotStuff, type SmtpPool, type SmtpPoolOptions } from './smtp-pool';

interface Received {
  from: string;
  to: string[];
  raw: Buffer;
}

interface TestServer {
  port: number;
  received: Received[];
  connections: number;
  server: SMTPServer;
}

const servers: SMTPServer[] = [];
const pools: SmtpPool[] = [];

afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
  await Promise.all(servers.splice(0).map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
});

async function startServer(options: Partial<SMTPServerOptions> = {}): Promise<TestServer> {
  const state = { received: [] as Received[], connections: 0 };
  const server = new SMTPServer({
    authOptional: true,
    hideSTARTTLS: true,
    hideENHANCEDSTATUSCODES: true,
    disableReverseLookup: true,
    logger: false,
    onConnect(_session, callback) {
      state.connections++;
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        state.received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks),
        });
        callback();
      });
    },
    ...options,
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    server,
    get received() {
      return state.received;
    },
    get connections() {
      return state.connections;
    },
  };
}

/** smtp-server keeps its open connections in a Set; tests drop them abruptly through it. */
function openConnections(server: TestServer): Set<{ _socket: { destroy(): void } }> {
  return (server.server as unknown as { connections: Set<{ _socket: { destroy(): void } }> }).connections;
}

function pool(port: number, options: Partial<SmtpPoolOptions> = {}): SmtpPool {
  const p = createSmtpPool({ host: '127.0.0.1', port, connections: 3, startTls: 'never', ...options });
  pools.push(p);
  return p;
}

const frame = createMessageFrame({
  fromEmail: 'loja@padaria.com.br',
  fromName: 'Padaria São João',
  listId: 'c1.lists.carteiro.app',
  feedbackId: 'c1:a1:campaign:carteiro',
  messageIdDomain: 'carteiro.app',
});

function message(i: number, recipient = `cliente${i}@example.com`): WireMessage {
  const raw = buildMimeMessage(frame, {
    messageId: `m${i}`,
    to: recipient,
    subject: `Promoção de Natal nº ${i}`,
    unsubscribeUrl: `https://carteiro.app/u/t${i}`,
    text: `Olá, cliente ${i}!\n.Esta linha começa com ponto\n..e esta com dois\n.\nFim.`,
    html: `<p>Olá, cliente ${i}!</p>\n.<p>ponto</p>`,
  });
  return { id: `m${i}`, envelopeFrom: `b+t${i}@bounces.carteiro.app`, recipient, raw };
}

function rejectByRecipient(rules: Record<string, [number, string]>): SMTPServerOptions['onRcptTo'] {
  return (address, _session, callback) => {
    const rule = rules[address.address.split('@')[0]!];
    if (!rule) return callback();
    const err = Object.assign(new Error(rule[1]), { responseCode: rule[0] });
    callback(err);
  };
}

describe('SmtpPool against smtp-server on loopback', () => {
  it('delivers 100 pipelined messages intact, dot-stuffed lines included', async () => {
    const server = await startServer();
    const transport = pool(server.port);
    const batch = Array.from({ length: 100 }, (_, i) => message(i));
    const outcomes = await transport.deliver(batch);
    expect(outcomes.map((o) => o.id)).toEqual(batch.map((m) => m.id));
    expect(outcomes.every((o) => o.kind === 'sent' && o.code === 250)).toBe(true);
    expect(server.received).toHaveLength(100);
    const byRecipient = new Map(server.received.map((r) => [r.to[0], r]));
    for (const m of batch) {
      const got = byRecipient.get(m.recipient);
      expect(got?.from).toBe(m.envelopeFrom);
      expect(got?.raw.equals(m.raw)).toBe(true);
    }
    const parsed = await simpleParser(byRecipient.get('cliente7@example.com')!.raw);
    expect(parsed.subject).toBe('Promoção de Natal nº 7');
    expect(parsed.text).toBe('Olá, cliente 7!\n.Esta linha começa com ponto\n..e esta com dois\n.\nFim.');
    expect(parsed.html).toBe('<p>Olá, cliente 7!</p>\n.<p>ponto</p>');
    expect(server.connections).toBeLessThanOrEqual(3);
  });

  it('falls back to lock-step when the relay does not offer PIPELINING', async () => {
    const server = await startServer({ hidePIPELINING: true } as Partial<SMTPServerOptions>);
    const outcomes = await pool(server.port, { connections: 2 }).deliver(
      Array.from({ length: 20 }, (_, i) => message(i)),
    );
    expect(outcomes.filter((o) => o.kind === 'sent')).toHaveLength(20);
    expect(server.received).toHaveLength(20);
  });

  it('maps rejections to permanent, policy and temporary outcomes, and the session continues (RSET)', async () => {
    const server = await startServer({
      onRcptTo: rejectByRecipient({
        unknown: [550, '5.1.1 User unknown'],
        dmarc: [550, '5.7.26 Unauthenticated email is not accepted'],
        grey: [451, '4.7.1 Greylisted, try again later'],
      }),
    });
    const transport = pool(server.port, { connections: 1 });
    const batch = [
      message(1),
      message(2, 'unknown@example.com'),
      message(3),
      message(4, 'dmarc@example.com'),
      message(5, 'grey@example.com'),
      message(6),
    ];
    const outcomes = await transport.deliver(batch);
    expect(outcomes.map((o) => [o.id, o.kind, o.policy, o.code, o.enhancedCode])).toEqual([
      ['m1', 'sent', false, 250, null],
      ['m2', 'permanent', false, 550, '5.1.1'],
      ['m3', 'sent', false, 250, null],
      ['m4', 'permanent', true, 550, '5.7.26'],
      ['m5', 'temporary', false, 451, '4.7.1'],
      ['m6', 'sent', false, 250, null],
    ]);
    expect(outcomes[1]!.response).toBe('550 5.1.1 User unknown');
    expect(server.received.map((r) => r.to[0])).toEqual([
      'cliente1@example.com',
      'cliente3@example.com',
      'cliente6@example.com',
    ]);
  });

  it('maps a rejected final reply (after the data) per message', async () => {
    let n = 0;
    const server = await startServer({
      onData(stream, _session, callback) {
        stream.resume();
        stream.on('end', () => {
          n++;
          if (n === 2)
            return callback(Object.assign(new Error('5.7.1 Message rejected as spam'), { responseCode: 554 }));
          callback();
        });
      },
    });
    const outcomes = await pool(server.port, { connections: 1 }).deliver([message(1), message(2), message(3)]);
    expect(outcomes.map((o) => `${o.kind}:${o.policy}:${o.code}`)).toEqual([
      'sent:false:250',
      'permanent:true:554',
      'sent:false:250',
    ]);
  });

  it('answers temporary for messages cut off by a dropped connection and recovers on the next batch', async () => {
    let refuse = false;
    let count = 0;
    const server = await startServer({
      onConnect(_session, callback) {
        if (refuse) return callback(Object.assign(new Error('4.3.2 Try again later'), { responseCode: 421 }));
        callback();
      },
      onData(stream, session, callback) {
        stream.resume();
        stream.on('end', () => {
          count++;
          if (count === 5) {
            // Drop every connection abruptly and refuse new ones for the rest of this batch.
            refuse = true;
            for (const conn of openConnections(server)) conn._socket.destroy();
            return;
          }
          callback();
        });
        void session;
      },
    });
    const transport = pool(server.port, { connections: 1 });
    const outcomes = await transport.deliver(Array.from({ length: 10 }, (_, i) => message(i)));
    expect(outcomes.slice(0, 4).every((o) => o.kind === 'sent')).toBe(true);
    expect(outcomes.slice(4).every((o) => o.kind === 'temporary' && o.code !== 250)).toBe(true);
    expect(outcomes[4]!.code).toBeNull();
    expect(outcomes[4]!.response).toMatch(/connection/);

    refuse = false;
    const next = await transport.deliver(Array.from({ length: 10 }, (_, i) => message(100 + i)));
    expect(next.every((o) => o.kind === 'sent')).toBe(true);
  });

  it('reconnects within a batch when only the connection dropped', async () => {
    let count = 0;
    const arrived: string[] = [];
    const server = await startServer({
      onData(stream, session, callback) {
        stream.resume();
        stream.on('end', () => {
          count++;
          if (count === 3) {
            for (const conn of openConnections(server)) conn._socket.destroy();
            return;
          }
          arrived.push(session.envelope.rcptTo[0]!.address);
          callback();
        });
      },
    });
    const outcomes = await pool(server.port, { connections: 1 }).deliver(
      Array.from({ length: 8 }, (_, i) => message(i)),
    );
    expect(outcomes[2]).toMatchObject({ kind: 'temporary', code: null });
    expect(outcomes.filter((o) => o.kind === 'sent').map((o) => o.id)).toEqual(['m0', 'm1', 'm4', 'm5', 'm6', 'm7']);
    // m3's envelope was in flight on the dropped connection: temporary too, never lost.
    expect(outcomes[3]!.kind).toBe('temporary');
    expect(arrived).toHaveLength(6);
    expect(server.connections).toBe(2);
  });

  it('answers temporary with the reason when the relay is down', async () => {
    const server = await startServer();
    const port = server.port;
    await new Promise<void>((resolve) => server.server.close(() => resolve()));
    servers.splice(servers.indexOf(server.server), 1);
    const outcomes = await pool(port).deliver([message(1), message(2)]);
    expect(outcomes.every((o) => o.kind === 'temporary' && /relay unavailable/.test(o.response))).toBe(true);
  });

  it('times out a reply that never comes', async () => {
    const server = await startServer({
      onData(stream) {
        stream.resume(); // never calls back
      },
    });
    const outcomes = await pool(server.port, { connections: 1, replyTimeoutMs: 300 }).deliver([message(1)]);
    expect(outcomes[0]).toMatchObject({ kind: 'temporary', code: null });
    expect(outcomes[0]!.response).toMatch(/timeout/);
  });

  it('authenticates with PLAIN and LOGIN, and reports a refused AUTH as temporary for every message', async () => {
    const users: string[] = [];
    const server = await startServer({
      authOptional: false,
      allowInsecureAuth: true,
      authMethods: ['PLAIN', 'LOGIN'],
      onAuth(auth, _session, callback) {
        users.push(`${auth.method}:${auth.username}`);
        if (auth.password === 'certa') return callback(null, { user: auth.username });
        callback(new Error('5.7.8 Authentication credentials invalid'));
      },
    });
    const plain = pool(server.port, { connections: 1, auth: { user: 'ana', pass: 'certa' } });
    expect((await plain.deliver([message(1)]))[0]!.kind).toBe('sent');
    const login = pool(server.port, { connections: 1, auth: { user: 'bia', pass: 'certa', method: 'LOGIN' } });
    expect((await login.deliver([message(2)]))[0]!.kind).toBe('sent');
    const wrong = pool(server.port, { connections: 1, auth: { user: 'eve', pass: 'errada' } });
    const refused = await wrong.deliver([message(3), message(4)]);
    expect(refused.map((o) => o.kind)).toEqual(['temporary', 'temporary']);
    expect(refused[0]!.code).toBe(535);
    expect(users).toEqual(['PLAIN:ana', 'LOGIN:bia', 'PLAIN:eve']);
  });

  it('upgrades with STARTTLS when offered', async () => {
    let secure = false;
    const server = await startServer({
      hideSTARTTLS: false,
      onMailFrom(_address, session, callback) {
        secure = session.secure;
        callback();
      },
    });
    const outcomes = await pool(server.port, {
      connections: 1,
      startTls: 'required',
      tls: { rejectUnauthorized: false },
    }).deliver([message(1)]);
    expect(outcomes[0]!.kind).toBe('sent');
    expect(secure).toBe(true);
  });

  it('opens a new connection after maxMessagesPerConnection', async () => {
    const server = await startServer();
    const outcomes = await pool(server.port, { connections: 1, maxMessagesPerConnection: 4 }).deliver(
      Array.from({ length: 10 }, (_, i) => message(i)),
    );
    expect(outcomes.every((o) => o.kind === 'sent')).toBe(true);
    expect(server.connections).toBe(3);
  });

  it('refuses unsafe envelope addresses without sending them', async () => {
    const server = await startServer();
    const outcomes = await pool(server.port).deliver([{ ...message(1), recipient: 'a@x.com>\r\nRCPT TO:<b@x.com' }]);
    expect(outcomes[0]).toMatchObject({ kind: 'permanent', code: 553 });
    expect(server.received).toHaveLength(0);
  });
});

describe('SMTP helpers', () => {
  it('parses multi-line replies and enhanced codes, split across chunks', () => {
    const parser = new ReplyParser();
    expect(parser.push(Buffer.from('250-smtp.example\r\n250-PIPELINING\r\n25'))).toEqual([]);
    const replies = parser.push(Buffer.from('0 SIZE 100\r\n550 5.7.26 DMARC\r\n354 go\n'));
    expect(replies).toEqual([
      { code: 250, enhancedCode: null, text: '250-smtp.example\n250-PIPELINING\n250 SIZE 100' },
      { code: 550, enhancedCode: '5.7.26', text: '550 5.7.26 DMARC' },
      { code: 354, enhancedCode: null, text: '354 go' },
    ]);
  });

  it('dot-stuffs leading dots and leaves other messages untouched', () => {
    const plain = Buffer.from('a\r\nb\r\n');
    expect(dotStuff(plain)).toBe(plain);
    expect(dotStuff(Buffer.from('.a\r\n.\r\nb.\r\n..c\r\n')).toString()).toBe('..a\r\n..\r\nb.\r\n...c\r\n');
  });
});
