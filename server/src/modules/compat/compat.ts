import { accountCreateSchema, accountUpdateSchema, campaignCreateSchema, campaignUpdateSchema } from '@carteiro/shared';
import { and, asc, count, desc, eq, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/database';
import { AppError } from '../../http/app-error';
import { ERROR_TEXT } from '../../http/error-texts';
import { notFound } from '../../http/not-found';
import { parseInput } from '../../http/validate';
import { memberAccounts } from '../accounts/account-directory';
import {
  type AccountRow,
  ensureAccountForUser,
  findMembership,
  updateAccountSettings,
} from '../accounts/accounts.service';
import { type CampaignRow, campaignRows } from '../campaigns/campaign-directory';
import { toCampaignView } from '../campaigns/campaign-view';
import { createCampaign, findCampaignRow, updateCampaign } from '../campaigns/campaigns';
import { COLLECTIONS, type CollectionName, type CollectionSpec } from './compat-collections';

/** Who calls: the signed-in user and the current account (requireActor). */
export interface CompatCaller {
  userId: string;
  name: string;
  email: string;
  accountId: string;
  role: 'owner' | 'admin' | 'member';
}

export interface WhereClause {
  field: string;
  operator: string;
  value: string | number | boolean | null;
}
export interface OrderClause {
  field: string;
  type?: 'asc' | 'desc';
}

/** Most rows one read answers (the old client never paginated). */
export const COMPAT_MAX_ROWS = 500;
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type Doc = Record<string, unknown>;

function accountDoc(row: AccountRow): Doc {
  return {
    id: row.id,
    uuid: row.uuid,
    owner: row.ownerUserId,
    name: row.name,
    legal_name: row.legalName,
    tax_id: row.taxId,
    address: row.address,
    time_zone: row.timeZone,
    default_from_name: row.defaultFromName,
    default_from_email: row.defaultFromEmail,
    price_millis: row.priceMillis,
    balance_millis: row.balanceMillis,
    status: row.status,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

function campaignDoc(row: CampaignRow): Doc {
  const v = toCampaignView(row);
  return {
    id: v.id,
    uuid: v.uuid,
    created_by: v.createdBy,
    name: v.name,
    subject: v.subject,
    preheader: v.preheader,
    from_name: v.fromName,
    from_email: v.fromEmail,
    reply_to: v.replyTo,
    include_list_ids: v.includeListIds,
    exclude_list_ids: v.excludeListIds,
    template: v.template,
    template_project: v.templateProject,
    track_opens: v.trackOpens,
    track_clicks: v.trackClicks,
    status: v.status,
    scheduled_at: v.scheduledAt,
    started_at: v.startedAt,
    finished_at: v.finishedAt,
    counters: v.counters,
    created_at: v.createdAt,
    updated_at: v.updatedAt,
  };
}

function collectionOf(name: string): { name: CollectionName; spec: CollectionSpec } {
  if (!Object.hasOwn(COLLECTIONS, name)) {
    throw new AppError(
      'bad_request',
      `Coleção desconhecida: "${name}". Use ${Object.keys(COLLECTIONS)
        .map((c) => `"${c}"`)
        .join(' ou ')}.`,
    );
  }
  return { name: name as CollectionName, spec: COLLECTIONS[name as CollectionName] };
}

function isUuidColumn(column: AnyPgColumn): boolean {
  return column.columnType === 'PgUUID';
}

function whereSql(spec: CollectionSpec, where: WhereClause[]): SQL[] {
  return where.map((clause) => {
    if (!Object.hasOwn(spec.filterable, clause.field))
      throw new AppError('bad_request', `Campo não permitido no filtro: "${clause.field}".`);
    if (clause.operator !== '==')
      throw new AppError('bad_request', `Operador não suportado: "${clause.operator}". Use "==".`);
    const column = spec.filterable[clause.field] as AnyPgColumn;
    if (isUuidColumn(column) && (typeof clause.value !== 'string' || !UUID_RE.test(clause.value)))
      throw new AppError('bad_request', `Valor inválido para o campo "${clause.field}".`);
    return eq(column, clause.value);
  });
}

function orderSql(spec: CollectionSpec, order: OrderClause[]): SQL[] {
  return order.map((clause) => {
    if (!Object.hasOwn(spec.orderable, clause.field))
      throw new AppError('bad_request', `Campo não permitido na ordenação: "${clause.field}".`);
    const column = spec.orderable[clause.field] as AnyPgColumn;
    return clause.type === 'desc' ? desc(column) : asc(column);
  });
}

/** Maps `data` (snake_case) to the domain's input keys; 400 naming the first field that is not allowed. */
function pickFields(data: Record<string, unknown>, allowed: Record<string, string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) {
    if (key === 'id' || key === 'updated_at' || key === 'created_at') continue; // set by the server
    const target = allowed[key];
    if (!target || !Object.hasOwn(allowed, key)) throw new AppError('bad_request', `Campo não permitido: "${key}".`);
    out[target] = value;
  }
  return out;
}

async function readDocs(
  db: Db,
  caller: CompatCaller,
  collection: CollectionName,
  filters: SQL[],
  order: SQL[],
): Promise<Doc[]> {
  if (collection === 'account') {
    const rows = await db
      .select()
      .from(memberAccounts)
      .where(and(eq(memberAccounts.memberUserId, caller.userId), ...filters))
      .orderBy(...order)
      .limit(COMPAT_MAX_ROWS);
    return rows.map(accountDoc);
  }
  const rows = await db
    .select()
    .from(campaignRows)
    .where(and(eq(campaignRows.createdBy, caller.accountId), eq(campaignRows.kind, 'campaign'), ...filters))
    .orderBy(...order)
    .limit(COMPAT_MAX_ROWS);
  return rows.map(campaignDoc);
}

async function readOne(db: Db, caller: CompatCaller, collection: CollectionName, id: string): Promise<Doc> {
  if (!UUID_RE.test(id)) throw notFound('document');
  if (collection === 'campaigns') return campaignDoc(await findCampaignRow(db, caller.accountId, id));
  const [doc] = await readDocs(db, caller, 'account', [eq(memberAccounts.id, id)], []);
  if (!doc) throw notFound('document');
  return doc;
}

/** POST /firebase/get: by id → [doc]; by where → docs (false when none); with order → docs or {empty: true}. */
export async function compatGet(
  db: Db,
  caller: CompatCaller,
  body: { collection: string; id?: string; where?: WhereClause[]; order?: OrderClause[] },
): Promise<Doc[] | { empty: true } | false> {
  const { name, spec } = collectionOf(body.collection);
  if (body.id !== undefined) return [await readOne(db, caller, name, body.id)];
  const docs = await readDocs(db, caller, name, whereSql(spec, body.where ?? []), orderSql(spec, body.order ?? []));
  if (body.order) return docs.length === 0 ? { empty: true } : docs;
  // Spec §7: the client coerces this answer to a boolean ("does an account exist?") and reads its first
  // element — `false` is falsy and `false[0]` is undefined, where an empty array would read as "exists".
  return docs.length === 0 ? false : docs;
}

/** POST /firebase/single: the document itself; 404 when it is not the caller's. */
export async function compatSingle(db: Db, caller: CompatCaller, body: { collection: string; id: string }) {
  const { name } = collectionOf(body.collection);
  return readOne(db, caller, name, body.id);
}

/** POST /firebase/count: {count} of the caller's documents matching `where`. */
export async function compatCount(
  db: Db,
  caller: CompatCaller,
  body: { collection: string; where?: WhereClause[] },
): Promise<{ count: number }> {
  const { name, spec } = collectionOf(body.collection);
  const filters = whereSql(spec, body.where ?? []);
  if (name === 'account') {
    const [row] = await db
      .select({ n: count() })
      .from(memberAccounts)
      .where(and(eq(memberAccounts.memberUserId, caller.userId), ...filters));
    return { count: Number(row?.n ?? 0) };
  }
  const [row] = await db
    .select({ n: count() })
    .from(campaignRows)
    .where(and(eq(campaignRows.createdBy, caller.accountId), eq(campaignRows.kind, 'campaign'), ...filters));
  return { count: Number(row?.n ?? 0) };
}

/** POST /firebase: creates an account (owned by the caller) or a campaign (created_by = current account). */
export async function compatCreate(
  db: Db,
  caller: CompatCaller,
  body: { collection: string; data: Record<string, unknown> },
): Promise<{ id: string; data: Doc }> {
  const { name, spec } = collectionOf(body.collection);
  const input = pickFields(body.data, spec.creatable);
  if (name === 'campaigns') {
    if (input.createdBy !== undefined && input.createdBy !== caller.accountId)
      throw new AppError('forbidden', ERROR_TEXT.compat.createOnlyInCurrentAccount);
    delete input.createdBy;
    const created = await createCampaign(db, caller.accountId, parseInput(campaignCreateSchema, input));
    const doc = campaignDoc(await findCampaignRow(db, caller.accountId, created.id));
    return { id: created.id, data: doc };
  }
  if (input.owner !== undefined && input.owner !== caller.userId)
    throw new AppError('forbidden', ERROR_TEXT.compat.ownerMustBeSignedInUser);
  const { uuid, owner: _owner, ...rest } = input;
  const { uuid: wantedUuid, name: wantedName } = parseInput(accountCreateSchema, { uuid, name: rest.name });
  const result = await ensureAccountForUser(
    db,
    { id: caller.userId, name: caller.name, email: caller.email },
    { uuid: wantedUuid, name: wantedName },
  );
  if (!result.accountId) throw new AppError('conflict', ERROR_TEXT.accounts.slugTaken);
  const changes = parseInput(accountUpdateSchema, rest);
  if (result.created && Object.values(changes).some((v) => v !== undefined))
    await updateAccountSettings(db, result.accountId, changes);
  const doc = await readOne(db, caller, 'account', result.accountId);
  return { id: result.accountId, data: doc };
}

/** PATCH /firebase: merges `data` into the document and sets updated_at (spec §4); campaign rules apply. */
export async function compatUpdate(
  db: Db,
  caller: CompatCaller,
  body: { collection: string; id: string; data: Record<string, unknown> },
): Promise<{ id: string; data: Doc }> {
  const { name, spec } = collectionOf(body.collection);
  const input = pickFields(body.data, spec.updatable);
  if (!UUID_RE.test(body.id)) throw notFound('document');
  if (name === 'campaigns') {
    if (input.createdBy !== undefined && input.createdBy !== caller.accountId)
      throw new AppError('forbidden', ERROR_TEXT.compat.moveToOtherAccount);
    delete input.createdBy;
    await updateCampaign(db, caller.accountId, body.id, parseInput(campaignUpdateSchema, input));
    return { id: body.id, data: campaignDoc(await findCampaignRow(db, caller.accountId, body.id)) };
  }
  const role = await findMembership(db, body.id, caller.userId);
  if (!role) throw notFound('document');
  if (role === 'member') throw new AppError('forbidden');
  await updateAccountSettings(db, body.id, parseInput(accountUpdateSchema, input));
  return { id: body.id, data: await readOne(db, caller, 'account', body.id) };
}
