import { describe, expect, it } from 'vitest';
import { ApiError, networkError } from '@/lib/api-client';
import { retrySegmentRead } from './segments';

describe('the segment editor’s count and preview', () => {
  it('are not asked again when the server answered — a count stopped at its time bound would run twice more', () => {
    const stopped = new ApiError(503, 'service_unavailable', 'A contagem deste segmento demorou demais…');
    expect(retrySegmentRead(0, stopped)).toBe(false);
    expect(retrySegmentRead(0, new ApiError(429, 'too_many_requests', 'Muitas contagens…'))).toBe(false);
    expect(retrySegmentRead(0, new ApiError(500, 'internal_error', 'Erro'))).toBe(false);
  });

  it('are retried twice when the server could not be reached', () => {
    expect(retrySegmentRead(0, networkError())).toBe(true);
    expect(retrySegmentRead(1, networkError())).toBe(true);
    expect(retrySegmentRead(2, networkError())).toBe(false);
  });
});
