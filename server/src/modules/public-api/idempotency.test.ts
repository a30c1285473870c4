import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestAccount } from '../../../test/support/test-account';
import { createTestDatabase, DATABASE_KINDS } from '../../../test/support/test-database';
import { queryRows } from '../../db/database';
import {
  canonicalJson,
  claimIdempotencyKey,
  completeIdempotencyKey,
  releaseIdempotencyKey,
  requestFingerprint,
} from './idempotency';

describe('request fingerprint', () => {
  it('ignores key order but not values, method or path', () => {
    expect(canonicalJson({ b: 1, a: { d: 2, c: [3, { f: 4, e: 5 }] } })).toBe(
      '{"a":{"c":[3,{"e":5,"f":4}],"d":2},"b":1}',
    );
    const base = requestFingerprint('POST', '/api/v1/contacts', { email: 'a@x.com', name: 'A' });
    expect(requestFingerprint('POST', '/api/v1/contacts', { name: 'A', email: 'a@x.com' })).toBe(base);
    expect(requestFingerprint('POST', '/api/v1/contacts', { email: 'b@x.com', name: 'A' })).not.toBe(base);
    expect(requestFingerprint('PUT', '/api/v1/contacts', { email: 'a@x.com', name: 'A' })).not.toBe(base);
    expect(requestFingerprint('POST', '/api/v1/lists', { email: 'a@x.com', name: 'A' })).not.toBe(base);
  });
});

describe.each(DATABASE_KINDS)('idempotency claims on %s', (kind) => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let accountId: string;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    accountId = (await createTestAccount(database.db)).id;
  });
  afterAll(async () => {
    await database.close();
  });

  it('replays a finished claim with its status, body and content type', async () => {
    const first = await claimIdempotencyKey(database.db, accountId, 'k-done', 'h1');
    expect(first.kind).toBe('run');
    if (first.kind !== 'run') return;
    await completeIdempotencyKey(database.db, first.id, {
      status: 201,
      body: '{"ok":true}',
      contentType: 'application/json',
    });
    expect(await claimIdempotencyKey(database.db, accountId, 'k-done', 'h1')).toEqual({
      kind: 'replay',
      status: 201,
      body: '{"ok":true}',
      contentType: 'application/json',
    });
    await expect(claimIdempotencyKey(database.db, accountId, 'k-done', 'h2')).rejects.toMatchObject({
      code: 'idempotency_key_reused',
      status: 422,
    });
  });

  it('lets a retry run again after a 5xx released the claim', async () => {
    const first = await claimIdempotencyKey(database.db, accountId, 'k-failed', 'h1');
    if (first.kind !== 'run') throw new Error('expected run');
    await releaseIdempotencyKey(database.db, first.id);
    expect((await claimIdempotencyKey(database.db, accountId, 'k-failed', 'h1')).kind).toBe('run');
  });

  it('takes over a claim abandoned by a dead process, and forgets keys after 24 hours', async () => {
    const first = await claimIdempotencyKey(database.db, accountId, 'k-abandoned', 'h1');
    if (first.kind !== 'run') throw new Error('expected run');
    await queryRows(
      database.db,
      sql`update api_idempotency_keys set claimed_at = now() - interval '10 minutes' where id = ${first.id}`,
    );
    expect(await claimIdempotencyKey(database.db, accountId, 'k-abandoned', 'h1')).toEqual({
      kind: 'run',
      id: first.id,
    });

    const old = await claimIdempotencyKey(database.db, accountId, 'k-old', 'h1');
    if (old.kind !== 'run') throw new Error('expected run');
    await completeIdempotencyKey(database.db, old.id, { status: 200, body: '{}', contentType: 'application/json' });
    await queryRows(
      database.db,
      sql`update api_idempotency_keys set created_at = now() - interval '25 hours' where id = ${old.id}`,
    );
    // Past 24 h the key is free again, even for another request.
    expect((await claimIdempotencyKey(database.db, accountId, 'k-old', 'h2')).kind).toBe('run');
  });
});
