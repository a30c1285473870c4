import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from './config';
import { type Runtime, startRuntime } from './runtime';

/** Holds 127.0.0.1:2526 (the bounce receiver's dev default) for the test, unless something else already does. */
async function occupyDefaultBouncePort(): Promise<net.Server | null> {
  const server = net.createServer();
  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      error.code === 'EADDRINUSE' ? resolve(null) : reject(error),
    );
    server.listen(2526, '127.0.0.1', () => resolve(server));
  });
}

// Each test starts the whole runtime on a fresh DATA_DIR: PGlite's initdb and every migration (≈ 6 s of CPU), not the
// migrated dump the other files copy — 15–26 s a test alone at load 3–4, past the project's 30 s beside the other
// worker at load 7 (docs/benchmarks.md "Test suite — session 11").
describe('runtime (role all)', { timeout: 120_000 }, () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  function configFor(extra: Record<string, string> = {}) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'carteiro-runtime-'));
    cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    return loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, PORT: '0', MAIL_CATCHER_PORT: '0', ...extra });
  }

  async function start(extra: Record<string, string> = {}): Promise<Runtime> {
    const runtime = await startRuntime(configFor(extra), 'all', pino({ level: 'silent' }));
    cleanups.push(() => runtime.stop());
    return runtime;
  }

  it('starts without the bounce receiver when its default dev port is taken (a second local instance)', async () => {
    const blocker = await occupyDefaultBouncePort();
    if (blocker) cleanups.push(() => new Promise<void>((resolve) => blocker.close(() => resolve())));
    const runtime = await start();
    const health = await fetch(`${runtime.url}/healthz`);
    expect(health.status).toBe(200);
  });

  it('refuses to start when an explicitly configured bounce port is taken', async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', () => resolve()));
    cleanups.push(() => new Promise<void>((resolve) => blocker.close(() => resolve())));
    const port = (blocker.address() as net.AddressInfo).port;
    await expect(start({ BOUNCE_SMTP_PORT: String(port) })).rejects.toMatchObject({ code: 'EADDRINUSE' });
  });

  it('registers every periodic loop in the one registry, and each runs once against a fresh database', async () => {
    const runtime = await start();
    const periodic = runtime.periodic;
    if (!periodic) throw new Error('role all has periodic jobs');
    const names = Object.keys(periodic.failures()).sort();
    expect(names).toEqual([
      'automations.tick',
      'billing.low-balance',
      'message-files.retention',
      'sender-domains.recheck',
      'transactional.sandbox-scheduled',
      'webhooks.dispatch',
      'webhooks.retention',
    ]);
    for (const name of names) await periodic.runNow(name);
    expect(Object.values(periodic.failures())).toEqual([0, 0, 0, 0, 0, 0, 0]);
  });
});
