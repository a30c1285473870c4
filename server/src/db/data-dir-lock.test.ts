import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DataDirInUseError, lockDataDir } from './data-dir-lock';

const MAIN_JS = path.resolve(import.meta.dirname, '../../dist/main.js');

describe('data directory lock', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });
  const tempDir = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'carteiro-lock-'));
    dirs.push(dir);
    return dir;
  };

  it('refuses while another live process holds the directory', async () => {
    const dir = tempDir();
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 20000)']);
    try {
      fs.writeFileSync(path.join(dir, 'carteiro.lock'), String(other.pid));
      expect(() => lockDataDir(dir)).toThrow(DataDirInUseError);
      expect(() => lockDataDir(dir)).toThrow(/já está em uso/);
    } finally {
      other.kill();
    }
  });

  it('takes over a lock left by a dead process', () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'carteiro.lock'), '999999999');
    const release = lockDataDir(dir);
    expect(fs.readFileSync(path.join(dir, 'carteiro.lock'), 'utf8')).toBe(String(process.pid));
    release();
    expect(fs.existsSync(path.join(dir, 'carteiro.lock'))).toBe(false);
  });

  it('makes a second Carteiro process on the same directory exit at once with a clear message', () => {
    expect(fs.existsSync(MAIN_JS), 'server/dist/main.js is built by `npm test` before the suites').toBe(true);
    const dir = tempDir();
    // A live process (this test runner) holds the lock, as a running `npm start` would.
    fs.writeFileSync(path.join(dir, 'carteiro.lock'), String(process.pid));
    const second = spawnSync(process.execPath, [MAIN_JS, 'all'], {
      env: { ...process.env, DATA_DIR: dir, PORT: '0', MAIL_CATCHER_PORT: '0', LOG_LEVEL: 'silent' },
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(second.status).toBe(1);
    expect(second.stderr).toContain('já está em uso');
    expect(second.stderr).toContain('is in use');
    expect(fs.readFileSync(path.join(dir, 'carteiro.lock'), 'utf8')).toBe(String(process.pid));
    expect(new DataDirInUseError(dir, 1).message).toContain(dir);
  });
});
