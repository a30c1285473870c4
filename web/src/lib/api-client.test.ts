import { ERROR_MESSAGES_PT_BR, REQUEST_TIMEOUT_DESKTOP_MS, REQUEST_TIMEOUT_MOBILE_MS } from '@carteiro/shared';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, apiFetch, configureApiClient, errorFromResponse, parseRetryAfterMs } from './api-client';
import { retryDelayMs, uploadWithRetry } from './upload';

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });

/** A fetch that never answers until aborted, like a dead network. */
function hangingFetch(): typeof fetch {
  return (_url, init) =>
    new Promise((_resolve, reject) => {
      init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
    });
}

let restore: () => void = () => {};
afterEach(() => {
  restore();
  vi.useRealTimers();
});

describe('apiFetch', () => {
  it('sends JSON with the From header and same-origin credentials', async () => {
    const fetch = vi.fn(async () => json({ ok: true }));
    restore = configureApiClient({ fetch });
    await expect(apiFetch('/api/x', { method: 'POST', body: { a: 1 } })).resolves.toEqual({ ok: true });
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/x');
    expect(init.credentials).toBe('same-origin');
    expect(init.body).toBe('{"a":1}');
    expect(init.headers).toMatchObject({ From: 'carteiro-web', 'Content-Type': 'application/json' });
  });

  it('turns {error:{code,message}} into an ApiError', async () => {
    restore = configureApiClient({
      fetch: async () => json({ error: { code: 'email-already-in-use', message: 'Já existe.' } }, 409),
    });
    const error = await apiFetch('/api/x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 409, code: 'email-already-in-use', message: 'Já existe.' });
  });

  it('gives a status-based code when the body is not JSON', async () => {
    restore = configureApiClient({ fetch: async () => new Response('<html>502</html>', { status: 502 }) });
    await expect(apiFetch('/api/x')).rejects.toMatchObject({ status: 502, code: 'internal_error' });
  });

  it('fails with network-request-failed after 30 s on desktop, not before', async () => {
    vi.useFakeTimers();
    restore = configureApiClient({ fetch: hangingFetch(), isMobile: () => false });
    let settled: unknown = 'pending';
    apiFetch('/api/slow').catch((e: unknown) => {
      settled = e;
    });
    await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_DESKTOP_MS - 1);
    expect(settled).toBe('pending');
    await vi.advanceTimersByTimeAsync(1);
    expect(settled).toMatchObject({
      code: 'network-request-failed',
      message: ERROR_MESSAGES_PT_BR['network-request-failed'],
    });
  });

  it('waits 60 s on mobile', async () => {
    vi.useFakeTimers();
    restore = configureApiClient({ fetch: hangingFetch(), isMobile: () => true });
    let settled: unknown = 'pending';
    apiFetch('/api/slow').catch((e: unknown) => {
      settled = e;
    });
    await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_DESKTOP_MS);
    expect(settled).toBe('pending');
    await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MOBILE_MS - REQUEST_TIMEOUT_DESKTOP_MS);
    expect(settled).toMatchObject({ code: 'network-request-failed' });
  });

  it('maps a network failure to network-request-failed', async () => {
    restore = configureApiClient({
      fetch: async () => {
        throw new TypeError('Failed to fetch');
      },
    });
    await expect(apiFetch('/api/x')).rejects.toMatchObject({ status: 0, code: 'network-request-failed' });
  });
});

describe('upload retry policy', () => {
  it('doubles from 1 s up to 64 s, plus up to 1 s of jitter', () => {
    const none = () => 0;
    expect([0, 1, 2, 3, 4, 5, 6, 7, 8].map((n) => retryDelayMs(n, none))).toEqual([
      1000, 2000, 4000, 8000, 16000, 32000, 64000, 64000, 64000,
    ]);
    expect(retryDelayMs(0, () => 0.999)).toBe(1999);
  });

  it('reads Retry-After in seconds or as a date', () => {
    expect(parseRetryAfterMs('3')).toBe(3000);
    expect(parseRetryAfterMs(new Date(10_000).toUTCString(), 4000)).toBe(6000);
    expect(parseRetryAfterMs(null)).toBeNull();
  });
});

describe('uploadWithRetry', () => {
  beforeEach(() => vi.useFakeTimers());

  it('retries 503, 408 and 429 with back-off, then succeeds', async () => {
    const answers = [json({}, 503), json({}, 408), json({}, 429), json({ id: 'img1' }, 201)];
    const fetch = vi.fn(async () => answers.shift()!);
    restore = configureApiClient({ fetch, random: () => 0 });
    const result = uploadWithRetry('/api/uploads', { body: 'x' });
    await vi.advanceTimersByTimeAsync(0);
    expect(fetch).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(999);
    expect(fetch).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1); // 1 s
    expect(fetch).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(2000); // 2 s
    expect(fetch).toHaveBeenCalledTimes(3);
    await vi.advanceTimersByTimeAsync(4000); // 4 s
    await expect(result).resolves.toEqual({ id: 'img1' });
    expect(fetch).toHaveBeenCalledTimes(4);
  });

  it('honours Retry-After', async () => {
    const answers = [json({}, 429, { 'Retry-After': '10' }), json({ ok: 1 })];
    const fetch = vi.fn(async () => answers.shift()!);
    restore = configureApiClient({ fetch, random: () => 0 });
    const result = uploadWithRetry('/api/uploads', { body: 'x' });
    await vi.advanceTimersByTimeAsync(9999);
    expect(fetch).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    await expect(result).resolves.toEqual({ ok: 1 });
  });

  it('does not retry a 400: throws its ApiError at once', async () => {
    const fetch = vi.fn(async () => json({ error: { code: 'validation_failed', message: 'Inválido.' } }, 400));
    restore = configureApiClient({ fetch });
    await expect(uploadWithRetry('/api/uploads', { body: 'x' })).rejects.toMatchObject({ code: 'validation_failed' });
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('gives up after max attempts with network-request-failed', async () => {
    const fetch = vi.fn(async () => json({}, 500));
    restore = configureApiClient({ fetch, random: () => 0 });
    const outcome = uploadWithRetry('/api/uploads', { body: 'x', maxAttempts: 4 }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(1000 + 2000 + 4000);
    expect(await outcome).toMatchObject({ code: 'network-request-failed' });
    expect(fetch).toHaveBeenCalledTimes(4);
  });

  it('gives up when the next wait would pass the total time limit', async () => {
    const fetch = vi.fn(async () => json({}, 502));
    restore = configureApiClient({ fetch, random: () => 0 });
    const outcome = uploadWithRetry('/api/uploads', { body: 'x', maxTotalMs: 5000 }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(1000 + 2000);
    expect(await outcome).toMatchObject({ code: 'network-request-failed' });
    expect(fetch).toHaveBeenCalledTimes(3); // a 4 s wait at t=3 s would end at 7 s > 5 s
  });

  it('retries network failures too', async () => {
    let calls = 0;
    restore = configureApiClient({
      fetch: async () => {
        calls++;
        if (calls === 1) throw new TypeError('Failed to fetch');
        return json({ ok: true });
      },
      random: () => 0,
    });
    const result = uploadWithRetry('/api/uploads', { body: 'x' });
    await vi.advanceTimersByTimeAsync(1000);
    await expect(result).resolves.toEqual({ ok: true });
  });
});

describe('a rate limit (429) says how long to wait', () => {
  it('adds the Retry-After wait to the message, in pt-BR', async () => {
    const body = {
      error: { code: 'too-many-requests', message: 'Muitas tentativas. Aguarde um pouco e tente de novo.' },
    };
    const inSeconds = await errorFromResponse(Response.json(body, { status: 429, headers: { 'Retry-After': '40' } }));
    expect(inSeconds.message).toBe(
      'Muitas tentativas. Aguarde um pouco e tente de novo. Tente de novo em 40 segundos.',
    );
    const inMinutes = await errorFromResponse(Response.json(body, { status: 429, headers: { 'Retry-After': '61' } }));
    expect(inMinutes.message).toContain('Tente de novo em 2 minutos.');
    expect(inMinutes.retryAfterMs).toBe(61_000);
    const bare = await errorFromResponse(new Response('slow down', { status: 429 }));
    expect(bare.message).toBe('Muitas tentativas. Aguarde um pouco e tente de novo.');
  });
});
