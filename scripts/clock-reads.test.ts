import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// ARCHITECTURE.md "Time": a time decision reads the injected clock (a `Clock`, or the `now` its caller read), so a
// test moves time instead of waiting on it. The server's direct reads of the system clock — `Date.now()` and
// `new Date()` — are counted per file and each file's count is listed below with what those reads are for. A new
// read in a file, or a file that starts reading the clock, fails here: pass the clock (or `now`) instead, or — for
// a record, a duration or a cache age — raise the count with the reason. A count that drops must be lowered, so
// the list only shrinks. Not counted: the system clock itself (server/src/clock.ts), tests and test helpers, and
// the default of a `now` parameter or option (`now = new Date()`, `now ?? new Date()`): callers that decide pass theirs.
const ROOT = path.resolve(import.meta.dirname, '..');
const SOURCE = path.join(ROOT, 'server/src');

const RECORD = 'writes when something happened (a timestamp column, header or field); decides nothing';
const ELAPSED = 'elapsed time (a pace, a wait limit, a log throttle, uptime), not a time of day';
const CACHE = "a process cache entry's age";

/** Files that read the system clock directly: how many reads, and what for. */
const ALLOWED: Record<string, { reads: number; why: string }> = {
  'modules/accounts/accounts.service.ts': { reads: 1, why: RECORD },
  'modules/accounts/team.routes.ts': { reads: 2, why: RECORD },
  'modules/auth/auth.routes.ts': {
    reads: 2,
    why: "a session's freshness and a link's expiry, compared with better-auth's own timestamps (system clock)",
  },
  'modules/automations/automations.ts': { reads: 2, why: RECORD },
  'modules/billing/refund-topup.ts': { reads: 1, why: RECORD },
  'modules/bounces/sns.ts': {
    reads: 1,
    why: "a decision still on the system clock (an SNS certificate's validity): to take now",
  },
  'modules/campaigns/campaign-controls.ts': {
    reads: 6,
    why: `${RECORD} (finishedAt, settledAt); and the progress page's ETA estimate (elapsed time)`,
  },
  'modules/campaigns/campaign-status.ts': { reads: 1, why: RECORD },
  'modules/campaigns/campaigns.ts': { reads: 2, why: RECORD },
  'modules/campaigns/public-viewer.ts': { reads: 1, why: CACHE },
  'modules/contacts/contact-status.ts': { reads: 1, why: RECORD },
  'modules/contacts/contacts.routes.ts': { reads: 1, why: `${RECORD} (the export file's name)` },
  'modules/contacts/create-contact.ts': { reads: 1, why: RECORD },
  'modules/contacts/unsubscribe-contacts.ts': { reads: 1, why: RECORD },
  'modules/contacts/update-contact.ts': { reads: 1, why: RECORD },
  'modules/imports/import-files.ts': { reads: 1, why: RECORD },
  'modules/imports/run-import.ts': {
    reads: 12,
    why: `${RECORD}; the progress write's pace (elapsed) and the time part of uuid v7 ids`,
  },
  'modules/lists/update-list.ts': { reads: 1, why: RECORD },
  'modules/metrics/metrics.ts': { reads: 2, why: ELAPSED },
  'modules/privacy-requests/export-contact-data.ts': { reads: 1, why: RECORD },
  'modules/privacy-requests/privacy-requests.ts': { reads: 2, why: RECORD },
  'modules/public-api/idempotency.ts': { reads: 2, why: ELAPSED },
  'modules/public-api/messages.routes.ts': { reads: 1, why: RECORD },
  'modules/segments/segments.ts': {
    reads: 3,
    why: `${RECORD}; and the "now" a saved condition tree is test-compiled against (validation only): to take now`,
  },
  'modules/sender-identities/domain-checks.ts': { reads: 2, why: RECORD },
  'modules/sender-identities/operator-domains.ts': { reads: 1, why: RECORD },
  'modules/sender-identities/sender-addresses.ts': { reads: 3, why: RECORD },
  'modules/sender-identities/sender-signing.ts': { reads: 2, why: CACHE },
  'modules/sending/delivery-worker.ts': { reads: 2, why: `${ELAPSED} (a lane's slice of work)` },
  'modules/sending/dkim/dkim-sign-worker.ts': {
    reads: 1,
    why: "the signing thread's first clock; each chunk then brings the engine's (nowMs)",
  },
  'modules/sending/mime/encoding.ts': { reads: 1, why: `${RECORD} (the Date header)` },
  'modules/sending/relay-delivery.ts': { reads: 1, why: `${ELAPSED} (the relay's send rate)` },
  'modules/subscriptions/add-contacts-to-lists.ts': { reads: 1, why: RECORD },
  'modules/subscriptions/subscribe.ts': { reads: 1, why: RECORD },
  'modules/templates/templates.ts': { reads: 1, why: RECORD },
  'modules/tracking/event-recorder.ts': { reads: 1, why: ELAPSED },
  'modules/webhooks/deliver.ts': { reads: 5, why: `${RECORD}; and the vetted-address cache's age` },
  'modules/webhooks/delivery-lanes.ts': {
    reads: 1,
    why: `${ELAPSED} (an endpoint's pace, a queue's wait against its lease, whether to wake the lanes at once)`,
  },
  'modules/webhooks/emit-event.ts': { reads: 2, why: RECORD },
  'modules/webhooks/endpoints.ts': { reads: 1, why: RECORD },
};

/** A `now` parameter's or option's default: `now = new Date()`, `now: Date = new Date()`, `now ?? new Date()`. */
const NOW_DEFAULT =
  /(?<!(?:const|let|var) )\bnow(?:: Date)? = new Date\(\)|\bnow \?\? (?:new Date\(\)|\(\(\) => new Date\(\)\))/g;
const READ = /Date\.now\(\)|new Date\(\)/g;

function clockReads(source: string): number {
  return (source.replace(NOW_DEFAULT, '').match(READ) ?? []).length;
}

function serverReads(): Record<string, number> {
  const counts: Record<string, number> = {};
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'testing') walk(full);
      } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') && !entry.name.endsWith('.d.ts')) {
        const file = path.relative(SOURCE, full).split(path.sep).join('/');
        if (file === 'clock.ts') continue;
        const reads = clockReads(fs.readFileSync(full, 'utf8'));
        if (reads > 0) counts[file] = reads;
      }
    }
  };
  walk(SOURCE);
  return counts;
}

describe('direct reads of the system clock in server code (ARCHITECTURE.md "Time")', () => {
  const found = serverReads();

  it('no file reads the system clock more often than listed (pass the Clock or `now` instead)', () => {
    const over = Object.entries(found)
      .filter(([file, reads]) => reads > (ALLOWED[file]?.reads ?? 0))
      .map(([file, reads]) => `${file}: ${reads} (listed ${ALLOWED[file]?.reads ?? 0})`);
    expect(over, 'new direct clock reads').toEqual([]);
  });

  it('every listed count is still exact (lower it when a read goes away: the list only shrinks)', () => {
    const stale = Object.entries(ALLOWED)
      .filter(([file, { reads }]) => (found[file] ?? 0) < reads)
      .map(([file, { reads }]) => `${file}: ${found[file] ?? 0} (listed ${reads})`);
    expect(stale).toEqual([]);
  });

  it('counts reads, and leaves out the default of a `now` parameter or option', () => {
    expect(clockReads('const a = Date.now(); const b = new Date(); const c = new Date(0);')).toBe(2);
    expect(clockReads('function f(now = new Date()) {}; function g(now: Date = new Date()) {}')).toBe(0);
    expect(clockReads('const now = options.now ?? new Date(); const clock = opts.now ?? (() => new Date());')).toBe(0);
    expect(clockReads('function h(at = new Date()) {}')).toBe(1);
    expect(clockReads('const now = new Date(); let now = Date.now();')).toBe(2);
  });
});
