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
  publicUrl: string;
  bounceDomain: string;
  listIdDomain: string;
}
