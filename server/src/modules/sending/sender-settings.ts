/** The engine's settings (config.ts SENDING_*), in the units the code uses. */
export interface SenderSettings {
  batchSize: number;
  concurrency: number;
  ratePerRelay: number;
  retryBaseSeconds: number;
  retryMaxSeconds: number;
  retryWindowSeconds: number;
  pauseAfterErrors: number;
  leaseSeconds: number;
  pollMs: number;
  scheduleSweepSeconds: number;
  /**
   * The worker's housekeeping — batches of an expired lease re-queued, A/B tests whose wait is over decided,
   * cancelled campaigns settled — at most this often (ms, by the worker's clock; default DEFAULT_SWEEP_MS, 0 = every
   * tick). Each of them was a statement on EVERY tick, and an idle worker ticks every `pollMs`: under bench:api's
   * single sends (pollMs 10) that was ~20 % of a core in the worker and its PostgreSQL backend for nothing.
   */
  sweepMs?: number;
  publicUrl: string;
  bounceDomain: string;
  listIdDomain: string;
}
