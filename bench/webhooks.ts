/**
 * npm run bench:webhooks — do webhooks keep pace with the engine? (a benchmark, not a test)
 *
 *   npm run bench:webhooks            # 100,000 recipients, DKIM off then RSA-2048
 *
 * The send benchmark (bench/send.ts) with one webhook endpoint subscribed to `message.delivered` and the webhook
 * worker (dispatcher + delivery lanes, ADR 0026) running in the sender process, as `carteiro worker` runs it: every
 * event is one signed Standard Webhooks POST to a counting receiver on 127.0.0.1, on the same cores as the engine,
 * the sink and PostgreSQL. Per scenario it prints the engine's rate, how long after the last message delivered
 * the last event reached the receiver, and the events' rate against the engine's — then the verdict against the
 * issue's bar: last event ≤ 10 s after the last message, events/s ≥ the engine's delivery rate.
 * DKIM off is the hardest case (the engine at its fastest); RSA-2048 is how real mail goes out.
 * WEBHOOKS_CONCURRENCY / WEBHOOKS_ENDPOINT_CONCURRENCY set the lanes' capacities (the product's defaults otherwise).
 * Every BENCH_* variable of bench/send.ts applies (BENCH_RECIPIENTS, BENCH_SCENARIOS, BENCH_DATABASE_URL, …).
 */
process.env.BENCH_RECIPIENTS ??= '100000';
process.env.BENCH_SCENARIOS ??= 'off:1:auto,rsa-sha256:1:auto';
// Each mode without webhooks first (the engine alone: the reference CPU per message), then with them.
process.env.BENCH_WEBHOOK ??= 'off,on';
process.env.BENCH_WEBHOOK_DRAIN = '1';
await import('./send');

export {};
