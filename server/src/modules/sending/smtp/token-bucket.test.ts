import { describe, expect, it } from 'vitest';
import { TokenBucket } from './token-bucket';

describe('TokenBucket (injected clock)', () => {
  it('spends the burst at once, then schedules one token per 1/rate seconds', () => {
    let now = 0;
    const bucket = new TokenBucket({ ratePerSecond: 10, burst: 3, now: () => now });
    expect([bucket.reserve(), bucket.reserve(), bucket.reserve()]).toEqual([0, 0, 0]);
    expect(bucket.reserve()).toBeCloseTo(100);
    expect(bucket.reserve()).toBeCloseTo(200);
    now = 1_000; // refills, capped at the burst after the two tokens owed
    expect([bucket.reserve(), bucket.reserve(), bucket.reserve()]).toEqual([0, 0, 0]);
    expect(bucket.reserve()).toBeCloseTo(100);
  });

  it('never schedules more than burst + rate × window messages in any window', () => {
    let now = 0;
    const rate = 500;
    const burst = 20;
    const bucket = new TokenBucket({ ratePerSecond: rate, burst, now: () => now });
    // 5,000 callers arriving every 0.7 ms (faster than the rate): record when each may send.
    const sendAt: number[] = [];
    for (let i = 0; i < 5_000; i++) {
      now = i * 0.7;
      sendAt.push(now + bucket.reserve());
    }
    sendAt.sort((a, b) => a - b);
    for (const window of [1, 10, 100, 1_000]) {
      let j = 0;
      for (let i = 0; i < sendAt.length; i++) {
        while (sendAt[i]! - sendAt[j]! >= window) j++;
        expect(i - j + 1).toBeLessThanOrEqual(burst + (rate * window) / 1000 + 1e-9);
      }
    }
    // and it keeps up with the rate: the last message goes out at ~ (5000 - burst) / rate seconds.
    expect(sendAt.at(-1)! / 1000).toBeCloseTo((5_000 - burst) / rate, 1);
  });

  it('defaults the burst to a tenth of a second of traffic', () => {
    expect(new TokenBucket({ ratePerSecond: 2_000 }).burst).toBe(200);
    expect(new TokenBucket({ ratePerSecond: 3 }).burst).toBe(1);
    expect(() => new TokenBucket({ ratePerSecond: 0 })).toThrow();
  });
});
