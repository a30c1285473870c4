import { UPLOAD_RETRY_MAX_DELAY_MS, UPLOAD_RETRY_STATUSES } from '@carteiro/shared';
import {
  errorFromResponse,
  fetchWithTimeout,
  isApiError,
  networkError,
  PRODUCT_IDENTIFIER,
  parseRetryAfterMs,
  readBody,
  requestTimeoutMs,
  uploadRandom,
} from './api-client';

export const UPLOAD_RETRY_BASE_DELAY_MS = 1000;
export const UPLOAD_MAX_ATTEMPTS = 10;
/** Give up once retrying would pass this much time since the first attempt (as storage clients do). */
export const UPLOAD_MAX_TOTAL_MS = 10 * 60_000;

export function isRetryableStatus(status: number): boolean {
  return status >= 500 || (UPLOAD_RETRY_STATUSES as readonly number[]).includes(status);
}

/** Delay before retry number `retry` (0-based): 1 s doubling to 64 s, plus up to 1 s of random jitter. */
export function retryDelayMs(retry: number, random: () => number = uploadRandom): number {
  const exponential = Math.min(UPLOAD_RETRY_BASE_DELAY_MS * 2 ** retry, UPLOAD_RETRY_MAX_DELAY_MS);
  return exponential + Math.floor(random() * UPLOAD_RETRY_BASE_DELAY_MS);
}

export interface UploadOptions {
  method?: 'POST' | 'PUT' | 'PATCH';
  /** FormData, Blob or a string; a new body must be readable on every attempt (not a one-shot stream). */
  body: BodyInit;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  maxAttempts?: number;
  maxTotalMs?: number;
  timeoutMs?: number;
}

/**
 * Uploads with retries (spec §9): on 5xx, 408, 429 or a network failure, waits 1 s doubling to 64 s plus jitter
 * (or the server's Retry-After, capped at 64 s) and tries again, up to `maxAttempts` or `maxTotalMs`; then throws
 * `network-request-failed`. Other errors (400, 413…) throw their ApiError at once. Resolves with the JSON body.
 */
export async function uploadWithRetry<T = unknown>(url: string, options: UploadOptions): Promise<T> {
  const maxAttempts = options.maxAttempts ?? UPLOAD_MAX_ATTEMPTS;
  const maxTotalMs = options.maxTotalMs ?? UPLOAD_MAX_TOTAL_MS;
  const startedAt = Date.now();
  for (let attempt = 0; ; attempt++) {
    let retryAfter: number | null = null;
    try {
      const response = await fetchWithTimeout(
        url,
        {
          method: options.method ?? 'POST',
          credentials: 'same-origin',
          headers: { Accept: 'application/json', From: PRODUCT_IDENTIFIER, ...options.headers },
          body: options.body,
        },
        options.signal,
        options.timeoutMs ?? requestTimeoutMs(),
      );
      if (response.ok) return await readBody<T>(response);
      if (!isRetryableStatus(response.status)) throw await errorFromResponse(response);
      retryAfter = parseRetryAfterMs(response.headers.get('Retry-After'));
    } catch (error) {
      if (!(isApiError(error) && error.code === 'network-request-failed')) throw error;
    }
    const delay = Math.min(retryAfter ?? retryDelayMs(attempt), UPLOAD_RETRY_MAX_DELAY_MS + UPLOAD_RETRY_BASE_DELAY_MS);
    if (attempt + 1 >= maxAttempts || Date.now() + delay - startedAt > maxTotalMs) throw networkError();
    await sleep(delay, options.signal);
  }
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
