import { type ChildProcess, spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVER_MAIN } from './server-build';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export interface CarteiroProcess {
  child: ChildProcess;
  /** Everything the process wrote so far (stdout + stderr, its JSON log lines included). */
  output(): string;
  /** Resolves with the exit code (or the signal) once the process has ended. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Resolves once the output matches `pattern` (rejects if the process ends first or after `timeoutMs`). */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  /** SIGKILL (a crash) or SIGTERM (a graceful stop); resolves when the process is gone. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * Starts the bundled server, `server/dist/main.js <role>`, as a real process the way `npm run api|worker` does
 * (scripts/start.mjs: the bundle with source maps; the run's globalSetup, server-build.ts, rebuilt it if stale),
 * with only the environment given (plus PATH): nothing leaks in from the test runner's own environment. Through
 * the bundle a start costs ≈ 1 s of CPU where tsx compiling from source cost ≈ 2.6 s, its threads' too.
 */
export function startCarteiroProcess(
  role: 'all' | 'api' | 'worker' | 'migrate',
  env: Record<string, string>,
  options: { hiddenDirs?: string[] } = {},
) {
  const node = [process.execPath, '--enable-source-maps', SERVER_MAIN, role];
  // `hiddenDirs`: the process runs in its own mount namespace where each of these directories is an empty tmpfs —
  // as on another machine, it cannot read what other processes keep there (util-linux unshare; the same pid).
  const hidden = options.hiddenDirs ?? [];
  const [command, ...args] =
    hidden.length === 0
      ? node
      : [
          'unshare',
          '--mount',
          '--propagation',
          'private',
          'sh',
          '-c',
          `${hidden.map((_dir, i) => `mount -t tmpfs none "$${i + 1}" && `).join('')}shift ${hidden.length} && exec "$@"`,
          'sh',
          ...hidden,
          ...node,
        ];
  const child = spawn(command as string, args, {
    cwd: ROOT,
    env: { PATH: process.env.PATH, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const listeners = new Set<() => void>();
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
    // Keep memory bounded on long runs: the head (start-up) and the recent tail are what tests read.
    if (output.length > 2_000_000) output = output.slice(0, 100_000) + output.slice(-500_000);
    for (const listener of listeners) listener();
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => {
      for (const listener of listeners) listener();
      resolve({ code, signal });
    });
  });
  const handle: CarteiroProcess = {
    child,
    output: () => output,
    exited,
    // A start on a loaded box (modules loaded, migrations checked) can take a minute: a bound, not a timing check.
    waitFor(pattern, timeoutMs = 90_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          listeners.delete(check);
          reject(new Error(`${role} process: no ${pattern} within ${timeoutMs} ms; output:\n${output.slice(-4000)}`));
        }, timeoutMs);
        function check() {
          const match = output.match(pattern);
          if (match) {
            clearTimeout(timer);
            listeners.delete(check);
            resolve(match);
          } else if (child.exitCode !== null || child.signalCode !== null) {
            clearTimeout(timer);
            listeners.delete(check);
            reject(new Error(`${role} process ended before ${pattern}; output:\n${output.slice(-4000)}`));
          }
        }
        listeners.add(check);
        check();
      });
    },
    async stop(signal = 'SIGKILL') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
  return handle;
}

/** The URL a started `api`/`all` process logged ("Carteiro is listening"). */
export async function listeningUrl(process: CarteiroProcess, timeoutMs?: number): Promise<string> {
  const match = await process.waitFor(/"url":"(http:\/\/[^"]+)"[^\n]*Carteiro is listening/, timeoutMs);
  return match[1] as string;
}

/** A loopback port nobody listens on right now (for a process that must be told its port up front). */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * Polls `check` every `everyMs` until it returns something truthy (returned) or `ms` pass (throws naming `what`).
 * For state other processes change (a database row, a sink's count): a bound, not a timing assertion.
 */
export async function until<T>(
  check: () => Promise<T | null | undefined | false> | T | null | undefined | false,
  ms: number,
  what: string,
  everyMs = 50,
): Promise<T> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    const value = await check();
    if (value) return value;
    await new Promise((r) => setTimeout(r, everyMs));
  }
  throw new Error(`timed out waiting for ${what}`);
}
