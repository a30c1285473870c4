import { z } from 'zod';
import { validationText } from '../validation-texts';

/**
 * API keys of the public REST API v1 (`/api/v1`, `Authorization: Bearer <key>`). A key is shown once in full
 * when created; afterwards only its prefix (e.g. `ct_live_8f3a`).
 */

/** `full`: every operation of the account. `send_only`: send messages and read their results, nothing else. */
export const API_KEY_SCOPES = ['full', 'send_only'] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

export const API_KEY_SCOPE_LABELS_PT_BR: Record<ApiKeyScope, string> = {
  full: 'Acesso total',
  send_only: 'Somente envio',
};

/**
 * `live` keys send and charge; `test` keys (`ct_test_…`, the sandbox, ADR 0035) validate, render and answer as live
 * keys do, but deliver nothing and charge nothing; they send and read their own messages only (send-only scope).
 */
export const API_KEY_MODES = ['live', 'test'] as const;
export type ApiKeyMode = (typeof API_KEY_MODES)[number];

/** Every key starts with this; a scanner (e.g. GitHub secret scanning) can recognise leaked keys by it. */
export const API_KEY_PREFIX = 'ct_live_';
/** The prefix of a test (sandbox) key. */
export const API_KEY_TEST_PREFIX = 'ct_test_';

/** The mode a key's text (or its stored prefix) says it has. */
export function apiKeyModeOf(keyOrPrefix: string): ApiKeyMode {
  return keyOrPrefix.startsWith(API_KEY_TEST_PREFIX) ? 'test' : 'live';
}
/** Characters of the key shown in lists after creation (the prefix plus 4 characters of the secret). */
export const API_KEY_DISPLAY_CHARS = API_KEY_PREFIX.length + 4;
/** The `Idempotency-Key` header: 1 to 255 visible ASCII characters. */
export const IDEMPOTENCY_KEY_RE = /^[\x21-\x7e]{1,255}$/;

export const apiKeyCreateSchema = z.object({
  name: z
    .string({ error: validationText('keyNameRequired') })
    .trim()
    .min(1, validationText('keyNameRequired'))
    .max(100, validationText('nameTooLong100')),
  scope: z.enum(API_KEY_SCOPES, { error: validationText('keyScopeRequired') }).default('full'),
  /** `test`: a sandbox key (`ct_test_…`); always send-only. */
  mode: z.enum(API_KEY_MODES, { error: validationText('keyModeRequired') }).default('live'),
});
export type ApiKeyCreateInput = z.infer<typeof apiKeyCreateSchema>;

/** A key as listed (never the secret). */
export const apiKeySchema = z.object({
  id: z.uuid(),
  name: z.string(),
  scope: z.enum(API_KEY_SCOPES),
  mode: z.enum(API_KEY_MODES),
  /** The first characters of the key, e.g. `ct_live_8f3a`. */
  prefix: z.string(),
  createdAt: z.string(),
  createdBy: z.object({ userId: z.string(), name: z.string().nullable(), email: z.string().nullable() }),
  lastUsedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
});
export type ApiKey = z.infer<typeof apiKeySchema>;

/** The answer of a creation: the key listed, plus the whole secret — the only time it is ever shown. */
export const createdApiKeySchema = apiKeySchema.extend({ secret: z.string() });
export type CreatedApiKey = z.infer<typeof createdApiKeySchema>;
