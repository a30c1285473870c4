// Runs one child process the way `npm start` needs it: SIGINT/SIGTERM/SIGHUP sent to this launcher reach the child,
// the launcher ends with the child's exit code (or the child's signal), and the child is stopped when the launcher
// loses its parent — `npm start` runs us under `sh -c`, and a SIGTERM sent to npm is forwarded to that shell, which
// dies without passing it on, leaving us orphaned with the server still listening.
import { spawn } from 'node:child_process';

const FORWARDED = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/**
 * Spawns `command args` with inherited stdio and supervises it. Never returns: the process exits when the child does.
 * @param {string} command
 * @param {string[]} args
 * @param {{ orphanCheckMs?: number }} [options]
 */
export function runSupervised(command, args, options = {}) {
  const child = spawn(command, args, { stdio: 'inherit' });
  const parentAtStart = process.ppid;
  let stopping = false;

  const stop = (signal) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    if (stopping && signal !== 'SIGKILL') {
      // A second Ctrl-C while the server is shutting down: pass it on too (the server ignores repeats).
      child.kill(signal);
      return;
    }
    stopping = true;
    child.kill(signal);
  };

  for (const signal of FORWARDED) process.on(signal, () => stop(signal));

  const orphanCheck = setInterval(() => {
    if (process.ppid !== parentAtStart) stop('SIGTERM');
  }, options.orphanCheckMs ?? 500);
  orphanCheck.unref();

  child.on('error', (error) => {
    console.error(`[carteiro] não foi possível iniciar ${command}: ${error.message}`);
    process.exit(1);
  });
  child.on('exit', (code, signal) => {
    clearInterval(orphanCheck);
    if (code !== null) process.exit(code);
    // The child was killed by a signal: end the same way, so our parent sees the same status (128 + n).
    for (const s of FORWARDED) process.removeAllListeners(s);
    process.kill(process.pid, signal ?? 'SIGTERM');
  });
  return child;
}
