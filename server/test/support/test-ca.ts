import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface TestPki {
  dir: string;
  caCertFile: string;
  serverCertFile: string;
  serverKeyFile: string;
  clientCertFile: string;
  clientKeyFile: string;
  /** A client certificate from another CA: the PSP must refuse it. */
  rogueCertFile: string;
  rogueKeyFile: string;
  read(file: string): string;
}

function openssl(dir: string, args: string[]): void {
  execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
}

function issue(dir: string, name: string, subject: string, ca: string, ext?: string): void {
  openssl(dir, [
    'req',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    `${name}.key`,
    '-subj',
    subject,
    '-out',
    `${name}.csr`,
  ]);
  const args = ['x509', '-req', '-in', `${name}.csr`, '-CA', `${ca}.crt`, '-CAkey', `${ca}.key`, '-CAcreateserial'];
  args.push('-out', `${name}.crt`, '-days', '2', '-sha256');
  if (ext) {
    fs.writeFileSync(path.join(dir, `${name}.ext`), ext);
    args.push('-extfile', `${name}.ext`);
  }
  openssl(dir, args);
}

/**
 * A throw-away PKI made at test time with the openssl CLI: a test CA, the fake PSP's server certificate for
 * 127.0.0.1, the account's client certificate (what a bank issues to its Pix API client), and a client
 * certificate from a second, untrusted CA.
 */
export function createTestPki(): TestPki {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'carteiro-pki-'));
  for (const ca of ['ca', 'rogue-ca']) {
    openssl(
      dir,
      ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', `${ca}.key`, '-out', `${ca}.crt`].concat([
        '-days',
        '2',
        '-subj',
        `/CN=Carteiro test ${ca}`,
      ]),
    );
  }
  issue(
    dir,
    'server',
    '/CN=127.0.0.1',
    'ca',
    'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n',
  );
  issue(dir, 'client', '/CN=carteiro-pix-client/O=Carteiro', 'ca', 'extendedKeyUsage=clientAuth\n');
  issue(dir, 'rogue', '/CN=intruso', 'rogue-ca', 'extendedKeyUsage=clientAuth\n');
  const f = (name: string) => path.join(dir, name);
  return {
    dir,
    caCertFile: f('ca.crt'),
    serverCertFile: f('server.crt'),
    serverKeyFile: f('server.key'),
    clientCertFile: f('client.crt'),
    clientKeyFile: f('client.key'),
    rogueCertFile: f('rogue.crt'),
    rogueKeyFile: f('rogue.key'),
    read: (file) => fs.readFileSync(file, 'utf8'),
  };
}
