/**
 * A token bucket that schedules rather than refuses: `reserve()` takes one token and returns how many
 * milliseconds the caller must wait before using it (0 when a token is available now). Tokens may go negative,
 * so concurrent callers are queued fairly in time. The clock is injected for tests.
 */
export interface TokenBucketOptions {
  /** Sustained rate, tokens per second (> 0). */
  ratePerSecond: number;
  /** Bucket capacity: how many tokens may be spent at once after an idle period; default max(1, rate/10). */
  burst?: number;
  /** Milliseconds clock; defaults to `performance.now()`. */
  now?: () => number;
}

export class TokenBucket {
  readonly ratePerSecond: number;
  readonly burst: number;
  private readonly now: () => number;
  private tokens: number;
  private last: number;

  constructor(options: TokenBucketOptions) {
    if (!(options.ratePerSecond > 0)) throw new Error('ratePerSecond must be > 0');
    this.ratePerSecond = options.ratePerSecond;
    this.burst = Math.max(1, options.burst ?? Math.ceil(options.ratePerSecond / 10));
    this.now = options.now ?? (() => performance.now());
    this.tokens = this.burst;
    this.last = this.now();
  }

  /** Takes one token; returns the delay in ms before it may be used. */
  reserve(): number {
    const now = this.now();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) * this.ratePerSecond) / 1000);
    this.last = now;
    this.tokens -= 1;
    return this.tokens >= 0 ? 0 : (-this.tokens * 1000) / this.ratePerSecond;
  }
}
