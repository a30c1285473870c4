import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

// Real processes and real signals: a launcher running supervise.mjs, and a child that listens on a loopback port
// like the server does and records the signal it got.
const dir = mkdtempSync(path.join(tmpdir(), 'carteiro-supervise-'));
const supervise = path.resolve(import.meta.dirname, 'supervise.mjs');
const fixture = path.join(dir, 'server.mjs');
writeFileSync(
  fixture,
  `import net from 'node:net';
import fs from 'node:fs';
const record = process.argv[2];
const server = net.createServer().listen(0, '127.0.0.1', () => {
  process.stdout.write('ready ' + server.address().port + ' ' + process.pid + '\\n');
});
const stop = (signal, code) => { fs.writeFileSync(record, signal); server.close(() => process.exit(code)); };
process.on('SIGTERM', () => stop('SIGTERM', 0));
process.on('SIGINT', () => stop('SIGINT', 7));
`,
);
const launcher = path.join(dir, 'launcher.mjs');
writeFileSync(
  launcher,
  `import { runSupervised } from ${JSON.stringify(supervise)};
runSupervised(process.execPath, [${JSON.stringify(fixture)}, process.argv[2]], { orphanCheckMs: 50 });
`,
);

const started: ChildProcess[] = [];
afterEach(() => {
  for (const p of started.splice(0)) if (p.exitCode === null && p.signalCode === null) p.kill('SIGKILL');
});

function start(command: string, args: string[]) {
  const proc = spawn(command, [...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  started.push(proc);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    proc.on('exit', (code, signal) => resolve({ code, signal })),
  );
  const ready = new Promise<{ port: number; pid: number }>((resolve) => {
    let out = '';
    proc.stdout?.on('data', (chunk) => {
      out += String(chunk);
      const m = /ready (\d+) (\d+)/.exec(out);
      if (m) resolve({ port: Number(m[1]), pid: Number(m[2]) });
    });
  });
  return { proc, exited, ready };
}

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function gone(pid: number): Promise<void> {
  while (alive(pid)) await new Promise((r) => setTimeout(r, 20));
}

describe('npm start launcher (scripts/supervise.mjs)', () => {
  it('forwards SIGTERM to the server and exits with its code; the port is free afterwards', async () => {
    const record = path.join(dir, 'term');
    const { proc, exited, ready } = start(process.execPath, [launcher, record]);
    const { port, pid } = await ready;
    expect(await listening(port)).toBe(true);
    proc.kill('SIGTERM');
    expect(await exited).toEqual({ code: 0, signal: null });
    expect(readFileSync(record, 'utf8')).toBe('SIGTERM');
    await gone(pid);
    expect(await listening(port)).toBe(false);
  });

  it('forwards SIGINT (Ctrl-C) and passes the child exit code on', async () => {
    const record = path.join(dir, 'int');
    const { proc, exited, ready } = start(process.execPath, [launcher, record]);
    await ready;
    proc.kill('SIGINT');
    expect(await exited).toEqual({ code: 7, signal: null });
    expect(readFileSync(record, 'utf8')).toBe('SIGINT');
  });

  it('stops the server when the shell npm runs it under is killed (the launcher is orphaned)', async () => {
    const record = path.join(dir, 'orphan');
    // `; true` keeps sh as the parent, as npm's `sh -c` does; npm forwards its SIGTERM to that shell only.
    const shell = start('/bin/sh', ['-c', `"${process.execPath}" "${launcher}" "${record}"; true`]);
    const { port, pid } = await shell.ready;
    shell.proc.kill('SIGTERM');
    await shell.exited;
    await gone(pid);
    expect(readFileSync(record, 'utf8')).toBe('SIGTERM');
    expect(await listening(port)).toBe(false);
  });

  it('ends by the same signal when the server is killed by one', async () => {
    const record = path.join(dir, 'kill');
    const { exited, ready } = start(process.execPath, [launcher, record]);
    const { pid } = await ready;
    process.kill(pid, 'SIGKILL');
    expect(await exited).toEqual({ code: null, signal: 'SIGKILL' });
  });
});
