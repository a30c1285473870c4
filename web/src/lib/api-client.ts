// Every page's chunk reaches this module, the landing's too (100 KB gzip budget): it takes from @carteiro/shared only
// the few constants it needs, never the error catalogue; uploads with retries live in upload.ts.
import {
  INTERNAL_ERROR_PT_BR,
  NETWORK_ERROR_PT_BR,
  REQUEST_TIMEOUT_DESKTOP_MS,
  REQUEST_TIMEOUT_MOBILE_MS,
  TOO_MANY_REQUESTS_PT_BR,
} from '@carteiro/shared';
import { type Locale, translate } from '@/lib/i18n';

/** Product identifier sent in the `From` header of every call (spec §7). */
export const PRODUCT_IDENTIFIER = 'carteiro-web';

/** The one error type of the web client: HTTP failures and network failures alike. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
    /** A rate limit's wait (the answer's Retry-After), so every locale can say how long to wait. */
    readonly retryAfterMs: number | null = null,
  ) {
    super(message);
  }
}

export function networkError(): ApiError {
  return new ApiError(0, 'network-request-failed', NETWORK_ERROR_PT_BR);
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/** True on phones and tablets: their calls get the longer time-out (spec §9). */
export function detectMobile(): boolean {
  if (typeof navigator !== 'undefined' && /Mobi|Android|iPhone|iPad|iPod/i.test(navigator.userAgent)) return true;
  return typeof matchMedia === 'function' && matchMedia('(pointer: coarse)').matches;
}

export interface ApiClientConfig {
  fetch: typeof fetch;
  isMobile: () => boolean;
  /** Source of jitter for upload retries, in [0, 1). */
  random: () => number;
}

const defaultConfig: ApiClientConfig = {
  fetch: (...args) => globalThis.fetch(...args),
  isMobile: detectMobile,
  random: Math.random,
};
let config: ApiClientConfig = { ...defaultConfig };

/** Replaces parts of the client's environment (tests); returns a function that restores the previous one. */
export function configureApiClient(overrides: Partial<ApiClientConfig>): () => void {
  const previous = config;
  config = { ...config, ...overrides };
  return () => {
    config = previous;
  };
}

/** The jitter source of upload retries (upload.ts), replaceable through configureApiClient. */
export function uploadRandom(): number {
  return config.random();
}

export function requestTimeoutMs(): number {
  return config.isMobile() ? REQUEST_TIMEOUT_MOBILE_MS : REQUEST_TIMEOUT_DESKTOP_MS;
}

export interface ApiFetchOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  signal?: AbortSignal;
  headers?: Record<string, string>;
  timeoutMs?: number;
}

/**
 * JSON call to our API (same origin). Resolves with the parsed body (undefined for 204);
 * throws ApiError with the server's `{error:{code,message}}` on non-2xx, or `network-request-failed`
 * on a network failure or after the time-out (30 s desktop, 60 s mobile). A caller's abort is rethrown as is.
 */
export async function apiFetch<T = unknown>(path: string, options: ApiFetchOptions = {}): Promise<T> {
  const { method = options.body === undefined ? 'GET' : 'POST', body, signal, headers = {} } = options;
  const response = await fetchWithTimeout(
    path,
    {
      method,
      credentials: 'same-origin',
      headers: {
        Accept: 'application/json',
        From: PRODUCT_IDENTIFIER,
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    },
    signal,
    options.timeoutMs ?? requestTimeoutMs(),
  );
  if (!response.ok) throw await errorFromResponse(response);
  return readBody<T>(response);
}

/** JSON bodies parsed, other bodies (an HTML page) as text, empty bodies as undefined. */
export async function readBody<T>(response: Response): Promise<T> {
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  if (!text) return undefined as T;
  const type = response.headers.get('Content-Type') ?? '';
  return (type.includes('json') ? JSON.parse(text) : text) as T;
}

export async function fetchWithTimeout(
  url: string,
  init: RequestInit,
  signal: AbortSignal | undefined,
  timeoutMs: number,
): Promise<Response> {
  const controller = new AbortController();
  const onAbort = () => controller.abort(signal?.reason);
  if (signal?.aborted) throw signal.reason ?? new DOMException('Aborted', 'AbortError');
  signal?.addEventListener('abort', onAbort, { once: true });
  const timer = setTimeout(() => controller.abort(new DOMException('Timed out', 'TimeoutError')), timeoutMs);
  try {
    return await config.fetch(url, { ...init, signal: controller.signal });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw networkError();
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
}

/** Builds the ApiError of a non-2xx answer from its `{error:{code,message,details}}` body when it has one. */
export async function errorFromResponse(response: Response): Promise<ApiError> {
  let code = statusCode(response.status);
  let message = '';
  let details: unknown;
  try {
    const body = (await response.json()) as { error?: { code?: unknown; message?: unknown; details?: unknown } };
    if (body?.error) {
      if (typeof body.error.code === 'string') code = body.error.code;
      if (typeof body.error.message === 'string') message = body.error.message;
      details = body.error.details;
    }
  } catch {
    // Not JSON (a proxy's HTML error page, say): the status decides the code.
  }
  // A rate limit says how long to wait (the server's Retry-After), so nobody retries blindly.
  const waitMs = response.status === 429 ? parseRetryAfterMs(response.headers.get('Retry-After')) : null;
  if (response.status === 429) {
    const base = message || TOO_MANY_REQUESTS_PT_BR;
    message = waitMs === null ? base : `${base} ${retryInText('pt-BR', waitMs)}`;
  }
  // Without the server's text (a proxy's page, say), a generic one: screens show the catalogue's text by code.
  if (!message) message = INTERNAL_ERROR_PT_BR;
  return new ApiError(response.status, code, message, details, waitMs);
}

function statusCode(status: number): string {
  if (status === 400) return 'bad_request';
  if (status === 401) return 'unauthenticated';
  if (status === 403) return 'forbidden';
  if (status === 404) return 'not_found';
  if (status === 409) return 'conflict';
  if (status === 413) return 'payload_too_large';
  if (status === 429) return 'too_many_requests';
  if (status === 503) return 'service_unavailable';
  return 'internal_error';
}

/** "40 segundos", "1 minuto", "3 minutos" (rounded up) — "40 seconds" in English. */
export function formatWait(ms: number, locale: Locale = 'pt-BR'): string {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  const [value, unit] = seconds < 60 ? [seconds, 'second'] : [Math.ceil(seconds / 60), 'minute'];
  return new Intl.NumberFormat(locale, { style: 'unit', unit, unitDisplay: 'long' }).format(value);
}

/** "Tente de novo em 2 minutos." / "Try again in 2 minutes." — the sentence a rate-limit message ends with. */
export function retryInText(locale: Locale, ms: number): string {
  return translate(locale, 'common.retryIn', { wait: formatWait(ms, locale) });
}

/** Retry-After in ms (seconds or an HTTP date), or null when absent or unreadable. */
export function parseRetryAfterMs(value: string | null, now: number = Date.now()): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}
