import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const START_TIMEOUT_MS = 180_000;

export interface RunningApp {
  baseURL: string;
  stop: () => Promise<void>;
}

/** A free TCP port on loopback. */
export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolvePort(address.port) : reject(new Error('sem porta')),
      );
    });
  });
}

/**
 * The app under test. With E2E_BASE_URL set, that running instance; otherwise starts it as a user would
 * (`node scripts/start.mjs all` from the repo root) on a free port with a fresh DATA_DIR (holding a copy of the run's
 * migrated, empty database), waits for GET /healthz,
 * with `extraEnv` added to its environment, and `stop()` ends it (SIGTERM, then SIGKILL after 10 s) and deletes the data.
 */
export async function startApp(extraEnv: Record<string, string> = {}): Promise<RunningApp> {
  const external = process.env.E2E_BASE_URL;
  if (external) return { baseURL: external.replace(/\/$/, ''), stop: async () => {} };
  // A free port is only free when it is probed: until the child listens, another process on the machine may take
  // it (a listener on port 0, an outgoing connection's ephemeral port). Then the child exits with EADDRINUSE and
  // the app starts again on another port; any other failure is reported at once.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startAppOnce(extraEnv);
    } catch (error) {
      if (attempt >= PORT_ATTEMPTS || !(error instanceof PortTakenError)) throw error;
    }
  }
}

const PORT_ATTEMPTS = 3;

class PortTakenError extends Error {}

async function startAppOnce(extraEnv: Record<string, string>): Promise<RunningApp> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'carteiro-e2e-'));
  // The run's migrated database (migrated-data-dir.ts): the app starts on its own copy, with nothing to migrate.
  const migrated = inject('e2eMigratedDataDir');
  if (migrated) cpSync(join(migrated, 'pgdata'), join(dataDir, 'pgdata'), { recursive: true });
  const baseURL = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['scripts/start.mjs', 'all'], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      PUBLIC_URL: baseURL,
      MAIL_CATCHER_PORT: '0',
      // The inbound bounce receiver would take its fixed dev port (2526): suites run side by side, so it is off.
      BOUNCE_SMTP_PORT: '0',
      NODE_ENV: 'test',
      // Every browser journey comes from 127.0.0.1: the default 3 sign-ins a minute per client would trip.
      AUTH_RATE_LIMIT_PER_MINUTE: '100',
      // Per-suite settings (operators in ADMIN_EMAILS, say).
      ...extraEnv,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);

  const stop = async () => {
    await terminate(child);
    rmSync(dataDir, { recursive: true, force: true });
  };

  try {
    await waitForHealth(baseURL, child);
  } catch (error) {
    await stop();
    const message = `${(error as Error).message}\n--- saída do servidor ---\n${output}`;
    throw output.includes(`EADDRINUSE: address already in use 127.0.0.1:${port}`)
      ? new PortTakenError(message)
      : new Error(message);
  }
  return { baseURL, stop };
}

async function waitForHealth(baseURL: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`o servidor saiu com código ${child.exitCode} antes de ficar pronto`);
    try {
      const response = await fetch(`${baseURL}/healthz`, { signal: AbortSignal.timeout(2000) });
      if (response.ok) return;
    } catch {
      // Not listening yet: keep polling.
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`GET ${baseURL}/healthz não respondeu em ${START_TIMEOUT_MS / 1000} s`);
}

function terminate(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((done) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(kill);
      done();
    });
    child.kill('SIGTERM');
  });
}
