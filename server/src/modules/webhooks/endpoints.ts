import type {
  WebhookEndpointCreate,
  WebhookEndpointDto,
  WebhookEndpointUpdate,
  WebhookEventType,
  WebhookSecret,
} from '@carteiro/shared';
import { and, desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { AppError } from '../../http/app-error';
import { notFound } from '../../http/not-found';
import { generateWebhookSecret, type SecretBox } from './signing';
import { type GuardOptions, UnsafeWebhookUrl, vetWebhookUrl } from './ssrf-guard';
import { webhookEndpoints } from './webhooks.db';

/** How long the previous secret keeps signing after a rotation. */
export const ROTATION_OVERLAP_MS = 24 * 3600 * 1000;
/** Endpoints one account may have. */
export const MAX_ENDPOINTS_PER_ACCOUNT = 20;

type EndpointRow = typeof webhookEndpoints.$inferSelect;

export function endpointDto(row: EndpointRow): WebhookEndpointDto {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    eventTypes: row.eventTypes as WebhookEventType[],
    enabled: row.enabled,
    disabledReason: row.disabledReason,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The URL check of a save: the SSRF guard's refusal becomes a 400 on the `url` field. */
async function checkUrl(url: string, guard: GuardOptions): Promise<void> {
  try {
    await vetWebhookUrl(url, guard);
  } catch (error) {
    if (error instanceof UnsafeWebhookUrl) {
      throw new AppError('validation_failed', `url: ${error.message}`, {
        fields: [{ path: 'url', message: error.message }],
      });
    }
    throw error;
  }
}

export async function findEndpoint(db: Db, accountId: string, id: string): Promise<EndpointRow> {
  const [row] = await db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.accountId, accountId)));
  if (!row) throw notFound('webhookEndpoint');
  return row;
}

export async function listEndpoints(db: Db, accountId: string): Promise<WebhookEndpointDto[]> {
  const rows = await db
    .select()
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.accountId, accountId))
    .orderBy(desc(webhookEndpoints.createdAt));
  return rows.map(endpointDto);
}

export async function createEndpoint(
  deps: { db: Db; box: SecretBox; guard: GuardOptions },
  accountId: string,
  input: WebhookEndpointCreate,
): Promise<WebhookEndpointDto> {
  await checkUrl(input.url, deps.guard);
  const existing = await deps.db
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.accountId, accountId));
  if (existing.length >= MAX_ENDPOINTS_PER_ACCOUNT) {
    throw new AppError('conflict', `Limite de ${MAX_ENDPOINTS_PER_ACCOUNT} endpoints por conta atingido.`);
  }
  const [row] = await deps.db
    .insert(webhookEndpoints)
    .values({
      accountId,
      url: input.url,
      description: input.description,
      eventTypes: input.eventTypes,
      secretCiphertext: deps.box.seal(generateWebhookSecret()),
    })
    .returning();
  if (!row) throw new Error('endpoint insert returned nothing');
  return endpointDto(row);
}

export async function updateEndpoint(
  deps: { db: Db; guard: GuardOptions },
  accountId: string,
  id: string,
  input: WebhookEndpointUpdate,
): Promise<WebhookEndpointDto> {
  await findEndpoint(deps.db, accountId, id);
  if (input.url !== undefined) await checkUrl(input.url, deps.guard);
  const [row] = await deps.db
    .update(webhookEndpoints)
    .set({
      ...(input.url !== undefined ? { url: input.url } : {}),
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...(input.eventTypes !== undefined ? { eventTypes: input.eventTypes } : {}),
      // Enabling again clears the reason and the failure streak.
      ...(input.enabled !== undefined
        ? { enabled: input.enabled, disabledReason: null, ...(input.enabled ? { failingSince: null } : {}) }
        : {}),
      updatedAt: new Date(),
    })
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.accountId, accountId)))
    .returning();
  if (!row) throw notFound('webhookEndpoint');
  return endpointDto(row);
}

export async function deleteEndpoint(db: Db, accountId: string, id: string): Promise<void> {
  const rows = await db
    .delete(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.accountId, accountId)))
    .returning({ id: webhookEndpoints.id });
  if (rows.length === 0) throw notFound('webhookEndpoint');
}

/** The secrets that sign right now: the current one, plus the previous one during the 24 h after a rotation. */
export function activeSecrets(
  box: SecretBox,
  row: Pick<EndpointRow, 'secretCiphertext' | 'previousSecretCiphertext' | 'previousSecretExpiresAt'>,
  now = new Date(),
): string[] {
  const secrets = [box.open(row.secretCiphertext)];
  if (row.previousSecretCiphertext && row.previousSecretExpiresAt && row.previousSecretExpiresAt > now) {
    secrets.push(box.open(row.previousSecretCiphertext));
  }
  return secrets;
}

export async function revealSecret(db: Db, box: SecretBox, accountId: string, id: string): Promise<WebhookSecret> {
  const row = await findEndpoint(db, accountId, id);
  const [secret, previous] = activeSecrets(box, row);
  return {
    secret: secret as string,
    previousSecret: previous ?? null,
    previousSecretExpiresAt: previous ? (row.previousSecretExpiresAt?.toISOString() ?? null) : null,
  };
}

/** A new secret; the current one becomes the previous and keeps signing for ROTATION_OVERLAP_MS. */
export async function rotateSecret(
  db: Db,
  box: SecretBox,
  accountId: string,
  id: string,
  now = new Date(),
): Promise<WebhookSecret> {
  const row = await findEndpoint(db, accountId, id);
  const expires = new Date(now.getTime() + ROTATION_OVERLAP_MS);
  await db
    .update(webhookEndpoints)
    .set({
      secretCiphertext: box.seal(generateWebhookSecret()),
      previousSecretCiphertext: row.secretCiphertext,
      previousSecretExpiresAt: expires,
      updatedAt: now,
    })
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.accountId, accountId)));
  return revealSecret(db, box, accountId, id);
}
