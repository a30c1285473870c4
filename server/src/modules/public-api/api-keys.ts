import { createHash, randomBytes } from 'node:crypto';
import {
  API_KEY_DISPLAY_CHARS,
  API_KEY_PREFIX,
  API_KEY_TEST_PREFIX,
  type ApiKey,
  type ApiKeyCreateInput,
  type ApiKeyMode,
  type ApiKeyScope,
  apiKeyModeOf,
  type CreatedApiKey,
} from '@carteiro/shared';
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { AppError } from '../../http/app-error';
import { ERROR_TEXT } from '../../http/error-texts';
import { notFound } from '../../http/not-found';
import { userDirectory } from '../auth/users';
import { apiKeys } from './api-keys.db';

/** What a request authenticated by an API key carries. */
export interface ApiKeyContext {
  keyId: string;
  accountId: string;
  scope: ApiKeyScope;
  /** `test`: a sandbox key — its messages are stored and answered but never delivered nor charged (ADR 0035). */
  mode: ApiKeyMode;
}

/** `ct_live_` or `ct_test_` + 43 base64url characters (256 random bits). */
const KEY_RE = /^ct_(?:live|test)_[A-Za-z0-9_-]{43}$/;

/** True when `secret` has the shape of a key (anything else is refused without a database look-up). */
export function isWellFormedApiKey(secret: string): boolean {
  return KEY_RE.test(secret);
}

export function hashApiKey(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

function generateSecret(mode: ApiKeyMode): string {
  return `${mode === 'test' ? API_KEY_TEST_PREFIX : API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
}

type KeyRow = typeof apiKeys.$inferSelect & { creatorName: string | null; creatorEmail: string | null };

function toDto(row: KeyRow): ApiKey {
  return {
    id: row.id,
    name: row.name,
    scope: row.scope,
    // The prefix is the mode (as Stripe's sk_test_): no column to disagree with the key's own text.
    mode: apiKeyModeOf(row.prefix),
    prefix: row.prefix,
    createdAt: row.createdAt.toISOString(),
    createdBy: { userId: row.createdByUserId, name: row.creatorName, email: row.creatorEmail },
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
  };
}

const keyColumns = {
  id: apiKeys.id,
  accountId: apiKeys.accountId,
  name: apiKeys.name,
  scope: apiKeys.scope,
  prefix: apiKeys.prefix,
  keyHash: apiKeys.keyHash,
  createdByUserId: apiKeys.createdByUserId,
  createdAt: apiKeys.createdAt,
  lastUsedAt: apiKeys.lastUsedAt,
  revokedAt: apiKeys.revokedAt,
  revokedByUserId: apiKeys.revokedByUserId,
  creatorName: userDirectory.name,
  creatorEmail: userDirectory.email,
};

/** Creates a key; the answer is the only place the whole secret ever appears (only its hash is stored). */
export async function createApiKey(
  db: Db,
  accountId: string,
  userId: string,
  input: Omit<ApiKeyCreateInput, 'mode'> & { mode?: ApiKeyMode },
): Promise<CreatedApiKey> {
  const mode = input.mode ?? 'live';
  if (mode === 'test' && input.scope === 'full') {
    throw new AppError('validation_failed', ERROR_TEXT.publicApi.testKeysSendOnly, {
      fields: [{ path: 'scope', message: 'Chaves de teste são sempre "somente envio".' }],
    });
  }
  const secret = generateSecret(mode);
  const [row] = await db
    .insert(apiKeys)
    .values({
      accountId,
      name: input.name,
      scope: input.scope,
      prefix: secret.slice(0, API_KEY_DISPLAY_CHARS),
      keyHash: hashApiKey(secret),
      createdByUserId: userId,
    })
    .returning({ id: apiKeys.id });
  if (!row) throw new AppError('internal_error');
  const created = await findApiKey(db, accountId, row.id);
  return { ...created, secret };
}

/** The account's keys, active first, newest first (revoked ones stay listed for the audit trail). */
export async function listApiKeys(db: Db, accountId: string): Promise<ApiKey[]> {
  const rows = await db
    .select(keyColumns)
    .from(apiKeys)
    .leftJoin(userDirectory, eq(userDirectory.id, apiKeys.createdByUserId))
    .where(eq(apiKeys.accountId, accountId))
    .orderBy(sql`${apiKeys.revokedAt} is not null`, desc(apiKeys.createdAt));
  return rows.map(toDto);
}

export async function findApiKey(db: Db, accountId: string, keyId: string): Promise<ApiKey> {
  const [row] = await db
    .select(keyColumns)
    .from(apiKeys)
    .leftJoin(userDirectory, eq(userDirectory.id, apiKeys.createdByUserId))
    .where(and(eq(apiKeys.accountId, accountId), eq(apiKeys.id, keyId)));
  if (!row) throw notFound('apiKey');
  return toDto(row);
}

/** Revokes a key at once (every process looks keys up in the database on each request). Idempotent. */
export async function revokeApiKey(db: Db, accountId: string, keyId: string, userId: string): Promise<ApiKey> {
  await db
    .update(apiKeys)
    .set({ revokedAt: sql`now()`, revokedByUserId: userId })
    .where(and(eq(apiKeys.accountId, accountId), eq(apiKeys.id, keyId), isNull(apiKeys.revokedAt)));
  return findApiKey(db, accountId, keyId);
}
