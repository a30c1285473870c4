import http from 'node:http';
import https from 'node:https';
import { ProviderError } from './payment-provider';

export interface JsonResponse {
  status: number;
  body: unknown;
}

/**
 * One JSON request to a provider over node:http(s) — https with the given agent (mTLS client certificate,
 * trusted CA). Answers the status and the parsed body; throws ProviderError on a network error, a timeout or
 * a body that is not JSON. Never logs: headers carry secrets.
 */
export function requestJson(input: {
  url: string;
  method: 'GET' | 'POST' | 'PUT';
  headers?: Record<string, string>;
  body?: unknown;
  /** A form-encoded body (OAuth2 token request) instead of JSON. */
  form?: Record<string, string>;
  agent?: https.Agent;
  timeoutMs?: number;
}): Promise<JsonResponse> {
  const url = new URL(input.url);
  const payload =
    input.form !== undefined
      ? new URLSearchParams(input.form).toString()
      : input.body !== undefined
        ? JSON.stringify(input.body)
        : undefined;
  const headers: Record<string, string> = { accept: 'application/json', ...input.headers };
  if (payload !== undefined) {
    headers['content-type'] = input.form ? 'application/x-www-form-urlencoded' : 'application/json';
    headers['content-length'] = String(Buffer.byteLength(payload));
  }
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<JsonResponse>((resolve, reject) => {
    const request = client.request(
      url,
      { method: input.method, headers, agent: input.agent, timeout: input.timeoutMs ?? 10_000 },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', (error) => reject(new ProviderError(`resposta interrompida: ${error.message}`)));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const status = response.statusCode ?? 0;
          if (text === '') return resolve({ status, body: null });
          try {
            resolve({ status, body: JSON.parse(text) as unknown });
          } catch {
            reject(new ProviderError(`resposta não é JSON (HTTP ${status})`, status));
          }
        });
      },
    );
    request.on('timeout', () => request.destroy(new Error('tempo esgotado')));
    request.on('error', (error) => reject(new ProviderError(`falha de conexão: ${error.message}`)));
    if (payload !== undefined) request.write(payload);
    request.end();
  });
}
