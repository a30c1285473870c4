import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { VettedTarget } from './ssrf-guard';

/** Bytes of an answer kept for the delivery log; the rest is not read. */
export const RESPONSE_KEEP_BYTES = 1024;

export interface PostResult {
  statusCode: number | null;
  durationMs: number;
  /** pt-BR description of a failure without an HTTP answer (timeout, connection). */
  error: string | null;
  responseBody: string;
}

/**
 * POSTs one signed body to a vetted target, connecting to the vetted address (no second DNS look-up: DNS
 * rebinding), with one overall timeout, never following redirects, reading at most RESPONSE_KEEP_BYTES. With an
 * `agent` (keep-alive, one per endpoint and vetted address) the connection is reused by the next attempts.
 */
export function postWebhook(
  target: VettedTarget,
  body: string,
  headers: Record<string, string>,
  timeoutMs: number,
  agent: http.Agent | false = false,
): Promise<PostResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const lookup: LookupFunction = (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
  const client = target.url.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: Omit<PostResult, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...result, durationMs: elapsed() });
    };
    const request = client.request(
      target.url,
      {
        method: 'POST',
        lookup,
        agent,
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
          'user-agent': 'Carteiro-Webhooks/1.0',
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        let kept = 0;
        const done = () =>
          finish({
            statusCode: response.statusCode ?? null,
            error: null,
            responseBody: Buffer.concat(chunks).subarray(0, RESPONSE_KEEP_BYTES).toString('utf8'),
          });
        response.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          kept += chunk.length;
          // The rest is not read: this connection cannot be reused.
          if (kept >= RESPONSE_KEEP_BYTES) {
            done();
            response.destroy();
          }
        });
        // A fully read answer leaves a keep-alive connection to the agent for the next attempt.
        response.on('end', done);
        response.on('error', done);
      },
    );
    const timer = setTimeout(() => {
      finish({ statusCode: null, error: `Tempo esgotado após ${timeoutMs} ms.`, responseBody: '' });
      request.destroy();
    }, timeoutMs);
    request.on('error', (error: NodeJS.ErrnoException) => {
      finish({ statusCode: null, error: `Falha de conexão: ${error.code ?? error.message}.`, responseBody: '' });
    });
    request.end(body);
  });
}
