import { randomFillSync } from 'node:crypto';
import {
  costOfEmailsMillis,
  formatBRL,
  type SkipReason,
  SUPPRESSION_REASON_LABELS,
  type SuppressionReason,
  type TransactionalMessageInput,
  type TransactionalSendResult,
} from '@carteiro/shared';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { prebuildStatement, queryPrebuilt, type SlotValues } from '../../db/database';
import { perDatabase } from '../../db/per-database';
import { pgTextArray } from '../../db/pg-text-array';
import { AppError } from '../../http/app-error';
import { notFound } from '../../http/not-found';
import { adjustAccountBalanceSql } from '../accounts/account-balance';
import { accounts } from '../accounts/accounts.db';
import { insufficientBalanceMessage, ledgerEntryFromBalanceSql } from '../billing/ledger';
import { findOrCreateTransactionalStream } from '../campaigns/transactional-stream';
import { suppressionProbeHashes, suppressionRowsOverSql, suppressionsByAddress } from '../contacts/suppression';
import { assertSenderAllowed, senderAllowedKey, senderAllowedOverSql } from '../sender-identities/sender-identities';
import { messageLinks } from '../sending/build-message';
import { enqueueMessagesSql, queueBatchesCtes } from '../sending/message-queue';
import {
  buildScope,
  type CompiledCampaign,
  compileCampaign,
  type RenderAccount,
  renderMessage,
} from '../templates/render-message';
import { assertTemplateData, dataScope } from '../templates/template-data';
import { findTemplate, type TemplateView } from '../templates/templates';
import { hasUnsubscribeLink } from '../templates/validate-template';

/** Messages per engine batch (message_batches row): a lane claims several batches at once (transactional-lanes.ts). */
export const TRANSACTIONAL_ENGINE_BATCH = 100;

export interface SendTransactionalOptions {
  /** PUBLIC_URL: the unsubscribe and "ver no navegador" links rendered into the message. */
  publicUrl: string;
  /**
   * Where `data` comes from: a caller's request (the public API: checked against the template's declared
   * variables, 400 when one is missing or a key is undeclared) or an automation's event (`event`: the shop's whole
   * event, not addressed to the template — not checked, so one odd event cannot pause an automation; a declared
   * variable it lacks renders empty). ADR 0035.
   */
  dataFrom?: 'request' | 'event';
  /**
   * A test key's send (ADR 0035): validated, rendered and stored as a live send is, and answered the same, but its
   * rows are `skipped` with reason `sandbox` — no engine batch, no charge, no delivery.
   */
  sandbox?: boolean;
  /**
   * A scheduled send (`sendAt`): stored and charged now like any send, its engine batch due at this instant (the
   * lanes claim it no earlier); cancellable, and refunded, until then (cancel-scheduled.ts).
   */
  sendAt?: Date | undefined;
  /** The transactional read already made by the caller's own statement (TransactionalRead); absent: read here. */
  read?: TransactionalRead | undefined;
}

interface Prepared {
  input: TransactionalMessageInput;
  /** The `to` row of the message, or a cc/bcc copy of it (own row, token, suppression check and charge). */
  kind: 'to' | 'cc' | 'bcc';
  /** The envelope recipient of this row: the `to` mailbox, or the cc/bcc address of the copy. */
  recipient: { email: string; name?: string | undefined };
  /** For copies: the token of the message's `to` row (the files are stored under it). */
  copyOfToken: string | null;
  token: string;
  subject: string;
  html: string;
  text: string;
  /** The strongest suppression of the address that covers the message's stream; null when it goes. */
  suppressedBy: SuppressionReason | null;
  /** Sent with a test key: stored and answered, never delivered nor charged. */
  sandbox: boolean;
}

/**
 * A message token (40 hex characters, 160 random bits) from a pooled buffer of the system's CSPRNG, each byte used
 * once: one randomFillSync per 256 tokens instead of one per message (the per-call cost showed in the profile).
 */
function newMessageToken(): string {
  if (tokenAt + TOKEN_BYTES > tokenPool.length) {
    randomFillSync(tokenPool);
    tokenAt = 0;
  }
  const token = tokenPool.toString('hex', tokenAt, tokenAt + TOKEN_BYTES);
  tokenAt += TOKEN_BYTES;
  return token;
}
const TOKEN_BYTES = 20;
const tokenPool = Buffer.alloc(TOKEN_BYTES * 256);
let tokenAt = tokenPool.length;

/** The stored response of a test key's message (`messages.response`). */
export const SANDBOX_RESPONSE = 'não enviado: chave de teste (sandbox)';

/** Whether the row is charged and delivered: neither suppressed nor a test key's. */
const goes = (p: Prepared) => !p.suppressedBy && !p.sandbox;

/** The message row's response for a message not sent because its address is suppressed in its stream. */
function suppressedResponse(reason: SuppressionReason): string {
  return `não enviado: endereço suprimido nesta conta — ${SUPPRESSION_REASON_LABELS[reason]}`;
}

/** The account's transactional stream (campaigns' hidden stream campaign), cached per process: it never changes. */
export async function transactionalStreamId(db: Db, accountId: string): Promise<string> {
  const ids = streamIds.of(db);
  const known = ids.get(accountId);
  if (known) return known;
  const id = await findOrCreateTransactionalStream(db, accountId);
  if (ids.size >= 10_000) ids.clear();
  ids.set(accountId, id);
  return id;
}

/**
 * Parsed sources, per process: an integration sends the same subject and bodies with different data, so the
 * Liquid parse and the HTML-to-text conversion (the costly part of compileCampaign) run once per distinct source.
 * Keyed by the sources themselves; bounded (oldest dropped first); only sources up to 256 KB are kept.
 */
const compiledCache = new Map<string, CompiledCampaign>();
const COMPILED_CACHE_MAX = 200;
const COMPILED_CACHE_MAX_CHARS = 256 * 1024;

function compiledSource(subject: string, html: string, text: string | null): CompiledCampaign {
  const key = `${subject}\u0000${text ?? '\u0001'}\u0000${html}`;
  const cached = compiledCache.get(key);
  if (cached) return cached;
  const compiled = compileCampaign({ subject, html, text });
  if (key.length <= COMPILED_CACHE_MAX_CHARS) {
    if (compiledCache.size >= COMPILED_CACHE_MAX) {
      const oldest = compiledCache.keys().next();
      if (!oldest.done) compiledCache.delete(oldest.value);
    }
    compiledCache.set(key, compiled);
  }
  return compiled;
}

/** accountId → its transactional stream's campaign id (never changes once created), per database. */
const streamIds = perDatabase(() => new Map<string, string>());

/**
 * A 400 about one field of one message of a request: "Mensagem N: …" and `messages.N.<field>` when the request has
 * several (the batch form), the bare message and field otherwise. message-files names a bad `fileId` the same way.
 */
export function renderError(index: number, total: number, field: string, message: string): AppError {
  const where = total > 1 ? `Mensagem ${index + 1}: ` : '';
  const path = total > 1 ? `messages.${index}.${field}` : field;
  return new AppError('validation_failed', `${where}${message}`, { fields: [{ path, message }] });
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * Transactional send (public API `POST /api/v1/messages` and its batch form), the engine's entry point for
 * messages that are not a campaign: each message is rendered now (the library template or the given subject
 * and bodies, Liquid-merged with `data` exactly as a campaign message; Liquid errors are a pt-BR 400), checked
 * against the account's suppression list (a suppressed or unsubscribed address is not sent and costs 0), and
 * then — in ONE transaction under the account's row lock — stored as `messages` rows of the account's
 * transactional stream with their content, cut into engine batches (`message_batches`, queued and due now) and
 * charged on the ledger: all of the request or nothing (a short balance is a 402 naming the missing amount).
 * The sending engine's lanes deliver them like campaign messages (claim, tracking, MIME, DKIM, SMTP pool,
 * outcome recording, 4xx retries, leases); a message whose delivery fails for good is refunded (ADR 0018).
 */
export async function sendTransactional(
  db: Db,
  accountId: string,
  inputs: TransactionalMessageInput[],
  options: SendTransactionalOptions,
): Promise<TransactionalSendResult> {
  const prepared = await prepareTransactional(db, accountId, inputs, options);
  return commitTransactional(db, accountId, prepared);
}

/**
 * Statements for at most this many messages run as named prepared statements (ADR 0019): single sends and their
 * groups. Larger ones (the batch form) stay unnamed, so PostgreSQL plans them for their real size — a generic plan
 * made for a handful of rows joins 500 of them badly.
 */
export const NAMED_STATEMENT_MAX_MESSAGES = 32;

/** A request rendered, checked and ready to be stored and charged (prepareTransactional → commitTransactional). */
export interface PreparedTransactional {
  streamId: string;
  /** The account's price per e-mail when prepared (unlocked read; the commit checks it under the lock). */
  priceMillis: number;
  messages: Prepared[];
  /** Who caused the send, for the ledger's line: an API request or an automation's step (its event's data). */
  origin: 'api' | 'automation';
  /** When its messages go (a scheduled send); null: at once. A commit's requests all share it. */
  sendAt: Date | null;
}

/** The transactional read's own values (its account is the caller's: a parameter, or the API key's row). */
export const TRANSACTIONAL_READ_SLOTS = { senderEmails: 'text', senderDomains: 'text', hashes: 'text' } as const;
export type TransactionalReadValues = SlotValues<typeof TRANSACTIONAL_READ_SLOTS>;
const PREPARE_SLOTS = { accountId: 'text', ...TRANSACTIONAL_READ_SLOTS } as const;

/** The transactional read's row (transactionalReadSql). */
export interface TransactionalReadRow {
  name: string;
  legal_name: string | null;
  address: string | null;
  tax_id: string | null;
  status: string;
  price_millis: number;
  allowed: boolean[];
  suppressions: string[];
}

/**
 * The transactional read made by the caller, in a statement of its own (the public API's key statement carries it
 * for a single send: one round trip fewer per call): the messages' addresses it was made for (`readKeyOf`) and its
 * row (undefined: no such account). prepareTransactional uses it only when its own messages have those addresses.
 */
export interface TransactionalRead {
  key: string;
  row: TransactionalReadRow | undefined;
}

/**
 * The reads of a transactional send that need no lock as ONE select (one round trip, ADR 0019): the account's
 * identity, status and price, whether each distinct From is a verified sender (the sender module's rule over an
 * array of them, in order) and which recipients are suppressed (the contacts module's probe). One text whatever
 * the number of senders and recipients. `accountId` and the values are values, or SQL expressions of the statement
 * that carries this select (the key's account in the public API's key statement; each request's own arrays in a
 * round of them).
 */
export function transactionalReadSql(
  accountId: string | SQL,
  v: { [K in keyof TransactionalReadValues]: TransactionalReadValues[K] | SQL },
): SQL {
  return sql`select ${accounts.name} as name, ${accounts.legalName} as legal_name, ${accounts.address} as address,
               ${accounts.taxId} as tax_id, ${accounts.status} as status,
               ${accounts.priceMillis} as price_millis,
               array(select ${senderAllowedOverSql(accountId, sql`s.email`, sql`s.domain`)}
                       from unnest(${v.senderEmails}::text[], ${v.senderDomains}::text[]) with ordinality
                            as s(email, domain, ord)
                      order by s.ord) as allowed,
               ${suppressionRowsOverSql(accountId, sql`${v.hashes}`)} as suppressions
          from ${accounts} where ${accounts.id} = ${accountId}`;
}

/** transactionalReadSql for an account given as a value: the statement prepareTransactional runs itself. */
export function transactionalPrepareSql(v: SlotValues<typeof PREPARE_SLOTS>): SQL {
  return transactionalReadSql(v.accountId, v);
}

export const transactionalPrepareStatement = prebuildStatement(
  'transactional_prepare',
  PREPARE_SLOTS,
  transactionalPrepareSql,
);

type ReadMessage = Pick<TransactionalMessageInput, 'from' | 'to' | 'cc' | 'bcc'>;

/** What the messages ask of the read: the distinct From addresses and every envelope address, in order. */
function readPlanOf(inputs: ReadMessage[]) {
  const senders = [...new Set(inputs.map((m) => m.from.email))];
  // Every envelope address: each message's `to`, then its cc and bcc copies (one row each).
  const envelopes = inputs.flatMap((input, index) =>
    input.cc?.length || input.bcc?.length
      ? [
          { index, kind: 'to' as const, mailbox: input.to },
          ...(input.cc ?? []).map((mailbox) => ({ index, kind: 'cc' as const, mailbox })),
          ...(input.bcc ?? []).map((mailbox) => ({ index, kind: 'bcc' as const, mailbox })),
        ]
      : { index, kind: 'to' as const, mailbox: input.to },
  );
  const recipients = envelopes.map((e) => e.mailbox.email);
  return { senders, envelopes, recipients };
}

/** The read's values for these senders and recipients (the sender keys and the recipients' probe hashes). */
function readValuesOf(senders: string[], recipients: string[]): TransactionalReadValues {
  const keys = senders.map(senderAllowedKey);
  return {
    senderEmails: pgTextArray(keys.map((k) => k.email)),
    senderDomains: pgTextArray(keys.map((k) => k.domain)),
    hashes: suppressionProbeHashes(recipients),
  };
}

/** What identifies a read: the senders and recipients it was made for (cheaper to compare than its values). */
const readKeyOf = (senders: string[], recipients: string[]) => `${senders.join('\n')}\u0000${recipients.join('\n')}`;

/** The transactional read's values for these messages (what a statement that carries the read passes). */
export function transactionalReadValues(inputs: ReadMessage[]): TransactionalReadValues {
  const { senders, recipients } = readPlanOf(inputs);
  return readValuesOf(senders, recipients);
}

/**
 * The read a carrying statement made for these messages, from the columns of its row (transactionalReadSql's, joined
 * to its own: all null when the account does not exist).
 */
export function transactionalReadOf(inputs: ReadMessage[], columns: Record<string, unknown>): TransactionalRead {
  const { senders, recipients } = readPlanOf(inputs);
  const row = columns as unknown as TransactionalReadRow;
  return { key: readKeyOf(senders, recipients), row: row.status == null ? undefined : row };
}

/**
 * Everything of a transactional send that needs no lock: the account's status and identity, the sender check,
 * the templates, the suppression probe and the rendering. Its errors (400/403/404) belong to this request alone.
 */
export async function prepareTransactional(
  db: Db,
  accountId: string,
  inputs: TransactionalMessageInput[],
  options: SendTransactionalOptions,
): Promise<PreparedTransactional> {
  // The reads that need no lock are ONE statement (one round trip, ADR 0019): the account's identity and status,
  // whether each distinct From is a verified sender (the sender module's rule, senderAllowedOverSql) and which
  // recipients are suppressed (the contacts module's probe, suppressionRowsOverSql). Their answers are then judged
  // in the usual order (account, sender, templates, rendering), so a caller sees the same errors as before. A read
  // the caller already made for these very values (options.read, carried by the API key's statement) is used as is.
  const { senders, envelopes, recipients } = readPlanOf(inputs);
  const small = inputs.length <= NAMED_STATEMENT_MAX_MESSAGES && senders.length <= 4;
  const row =
    options.read && options.read.key === readKeyOf(senders, recipients)
      ? options.read.row
      : (
          await queryPrebuilt<TransactionalReadRow, typeof PREPARE_SLOTS>(
            db,
            transactionalPrepareStatement,
            { accountId, ...readValuesOf(senders, recipients) },
            // Named for the usual shapes only: a generic plan made for a handful of rows reads a large batch badly.
            { named: small },
          )
        )[0];
  const account = row
    ? { name: row.name, legalName: row.legal_name, address: row.address, taxId: row.tax_id, status: row.status }
    : undefined;
  const allowed = row?.allowed ?? [];
  // Each message's own stream decides (the contacts module's rule): an unsubscribe stops marketing only.
  const suppressedFor = suppressionsByAddress(
    row?.suppressions ?? [],
    recipients,
    (i) => inputs[envelopes[i]?.index ?? 0]?.category ?? 'marketing',
  );
  if (!account) throw notFound('account');
  if (account.status !== 'active') throw new AppError('account_suspended', undefined);
  for (const [index, from] of senders.entries()) {
    // Refused: the sending rule itself answers, with its pt-BR message.
    if (!allowed[index]) await assertSenderAllowed(db, accountId, from);
  }

  const templates = new Map<string, TemplateView>();
  for (const [index, input] of inputs.entries()) {
    if (!input.templateId || templates.has(input.templateId)) continue;
    try {
      templates.set(input.templateId, await findTemplate(db, accountId, input.templateId));
    } catch (error) {
      if (error instanceof AppError && error.code === 'not_found') {
        const e = renderError(index, inputs.length, 'templateId', 'Modelo não encontrado nesta conta.');
        throw new AppError('not_found', e.message, e.details);
      }
      throw error;
    }
  }

  const streamId = await transactionalStreamId(db, accountId);
  const renderAccount: RenderAccount = account;
  let envelopeAt = 0;
  const prepared: Prepared[] = inputs.flatMap((input, index) => {
    const template = input.templateId ? templates.get(input.templateId) : undefined;
    const subject = input.subject ?? template?.subject ?? '';
    if (!subject.trim()) throw renderError(index, inputs.length, 'subject', 'Informe o assunto (o modelo não tem um).');
    let html = input.html ?? template?.html ?? '';
    const text = input.text ?? template?.text ?? null;
    if (!html.trim() && text?.trim()) html = `<div style="white-space:pre-wrap">${escapeHtml(text)}</div>`;
    if (!html.trim()) throw renderError(index, inputs.length, 'html', 'Informe o HTML, o texto ou um modelo.');
    if (
      input.category === 'marketing' &&
      !hasUnsubscribeLink(html) &&
      !/\{\{-?\s*link_descadastro\b/.test(text ?? '')
    ) {
      throw renderError(
        index,
        inputs.length,
        'html',
        'Mensagens de marketing precisam do link de descadastro: inclua {{ link_descadastro }} (por exemplo, <a href="{{ link_descadastro }}">Descadastrar</a>).',
      );
    }
    let compiled: CompiledCampaign;
    try {
      compiled = compiledSource(subject, html, text);
    } catch (error) {
      throw renderError(index, inputs.length, 'html', `Erro de sintaxe no modelo: ${(error as Error).message}`);
    }
    const data = input.data ?? {};
    if (template && options.dataFrom !== 'event') {
      assertTemplateData(
        template,
        data,
        inputs.length > 1 ? { path: `messages.${index}.`, label: `Mensagem ${index + 1}: ` } : undefined,
      );
    }
    // `{{ dados.x }}`: the template's declared variables (ADR 0035); the top-level keys stay merged as before.
    const dados = dataScope(template?.variables ?? [], data);
    const contato = typeof data.contato === 'object' && data.contato !== null ? data.contato : {};
    // The message is the `to` person's (the merge data is theirs); each copy is rendered with its own token, so
    // its tracking and "ver no navegador" links are its own.
    const render = (token: string) => {
      const scope = {
        ...data,
        ...buildScope(
          { email: input.to.email, name: input.to.name ?? null, fields: { ...data, ...contato } },
          renderAccount,
          messageLinks(options.publicUrl, streamId, token),
        ),
        dados,
      };
      let rendered: ReturnType<typeof renderMessage>;
      try {
        rendered = renderMessage(compiled, scope);
      } catch (error) {
        throw renderError(index, inputs.length, 'data', `Erro ao montar a mensagem: ${(error as Error).message}`);
      }
      if (!rendered.subject)
        throw renderError(index, inputs.length, 'subject', 'O assunto ficou vazio depois da mesclagem.');
      return rendered;
    };
    const token = newMessageToken();
    const rendered = render(token);
    // PostgreSQL text cannot hold NUL: refused here in pt-BR rather than failing the insert.
    const texts: [string, string | null | undefined][] = [
      ['subject', rendered.subject],
      ['html', rendered.html],
      ['text', rendered.text],
      ['from.name', input.from.name],
      ['to.name', input.to.name],
      ['tags', input.tags?.join('')],
      ['cc', input.cc?.map((m) => m.name ?? '').join('')],
      ['bcc', input.bcc?.map((m) => m.name ?? '').join('')],
      ['metadata', input.metadata ? JSON.stringify(input.metadata) : undefined],
    ];
    for (const [field, value] of texts) {
      if (value?.includes('\u0000')) {
        throw renderError(index, inputs.length, field, 'O texto contém um caractere inválido (NUL, \\u0000).');
      }
    }
    const own: Prepared = {
      input,
      kind: 'to',
      recipient: input.to,
      copyOfToken: null,
      token,
      ...rendered,
      suppressedBy: suppressedFor[envelopeAt++] ?? null,
      sandbox: options.sandbox === true,
    };
    // Most messages have no copies: nothing more to prepare.
    if (!input.cc?.length && !input.bcc?.length) return own;
    const copies = [
      ...(input.cc ?? []).map((mailbox) => ({ kind: 'cc' as const, mailbox })),
      ...(input.bcc ?? []).map((mailbox) => ({ kind: 'bcc' as const, mailbox })),
    ].map(({ kind, mailbox }): Prepared => {
      const copyToken = newMessageToken();
      return {
        input,
        kind,
        recipient: mailbox,
        copyOfToken: token,
        token: copyToken,
        ...render(copyToken),
        suppressedBy: suppressedFor[envelopeAt++] ?? null,
        sandbox: options.sandbox === true,
      };
    });
    return [own, ...copies];
  });
  return {
    streamId,
    priceMillis: Number(row?.price_millis),
    messages: prepared,
    origin: options.dataFrom === 'event' ? 'automation' : 'api',
    sendAt: options.sendAt ?? null,
  };
}

/**
 * Stores and charges prepared requests of one account in ONE statement (its own implicit transaction, or a part
 * of the caller's) under the account's row lock (storeAndCharge): their messages in request order (one ascending
 * id run), their content, their engine batches and one `send` ledger entry for all of them (each message's price
 * is on its `transactional_messages.cost_millis`, so the statement can attribute it). All or nothing: a short
 * balance is a 402 naming the missing amount for the whole lot, a suspended account a 403.
 * Several requests (the group commit of single sends, group-commit.ts) get one answer each, with their own
 * messages and cost, and the balance after the whole commit.
 */
export async function commitTransactional(
  db: Db,
  accountId: string,
  request: PreparedTransactional,
): Promise<TransactionalSendResult>;
export async function commitTransactional(
  db: Db,
  accountId: string,
  requests: PreparedTransactional[],
): Promise<TransactionalSendResult[]>;
export async function commitTransactional(
  db: Db,
  accountId: string,
  requests: PreparedTransactional | PreparedTransactional[],
): Promise<TransactionalSendResult | TransactionalSendResult[]> {
  const group = Array.isArray(requests) ? requests : [requests];
  const first = group[0];
  if (!first) return [];
  const prepared = group.flatMap((r) => r.messages);
  // One statement makes the batches of one due time: the group commit carries only sends due at once.
  if (group.some((r) => r.sendAt?.getTime() !== first.sendAt?.getTime())) {
    throw new Error('a transactional commit mixes sends due at different times');
  }
  const sendable = prepared.filter(goes).length;
  // The price read by prepareTransactional (unlocked); the statement charges only if it is still the account's
  // price under the lock, and otherwise answers the current one: then the commit runs again at that price.
  let price = first.priceMillis;
  for (let attempt = 0; ; attempt++) {
    const outcome = await storeAndCharge(db, accountId, first, prepared, sendable, price);
    if (!outcome.account) throw notFound('account');
    if (outcome.account.status !== 'active') throw new AppError('account_suspended', undefined);
    if (outcome.account.priceMillis !== price) {
      if (attempt >= 3) throw new Error('account price keeps changing during a transactional commit');
      price = outcome.account.priceMillis;
      continue;
    }
    const cost = costOfEmailsMillis(sendable, price);
    if (outcome.balanceAfterMillis === null) {
      const missing = cost - outcome.account.balanceMillis;
      const what = sendable === 1 ? 'para enviar esta mensagem' : `para enviar estas ${sendable} mensagens`;
      throw new AppError('insufficient_balance', insufficientBalanceMessage(missing, what), {
        missingMillis: missing,
        costMillis: cost,
        balanceMillis: outcome.account.balanceMillis,
      });
    }
    const ids = prepared.map((p) => outcome.idByToken.get(p.token) as number);
    const balance = outcome.balanceAfterMillis;
    let at = 0;
    const results = group.map((r) => {
      const own: TransactionalSendResult['messages'] = [];
      let total = 0;
      for (const p of r.messages) {
        const id = String(ids[at++]);
        // A test key's message answers as a live one (queued), at no cost.
        const status = p.suppressedBy
          ? ('suppressed' as const)
          : first.sendAt
            ? ('scheduled' as const)
            : ('queued' as const);
        const costMillis = goes(p) ? price : 0;
        const reason = p.suppressedBy ? { suppressionReason: p.suppressedBy } : {};
        total += costMillis;
        if (p.kind === 'to') {
          own.push({ id, to: p.recipient.email, status, costMillis, stream: p.input.category, ...reason });
          continue;
        }
        const parent = own[own.length - 1] as TransactionalSendResult['messages'][number];
        parent.copies ??= [];
        parent.copies.push({ id, to: p.recipient.email, kind: p.kind, status, costMillis, ...reason });
      }
      return { messages: own, costMillis: total, balanceMillis: balance };
    });
    return Array.isArray(requests) ? results : (results[0] as TransactionalSendResult);
  }
}

interface StoreOutcome {
  /** The account as locked by the statement (price, balance before, status); null when it does not exist. */
  account: { priceMillis: number; balanceMillis: number; status: string } | null;
  /** The balance after the charge; null when nothing was stored (short balance, suspended, or another price). */
  balanceAfterMillis: number | null;
  idByToken: Map<string, number>;
}

/** The commit statement's values (prebuildStatement): one array parameter per column of its `input` rows. */
const COMMIT_SLOTS = {
  accountId: 'text',
  streamId: 'text',
  price: 'integer',
  cost: 'integer',
  negativeCost: 'integer',
  sendable: 'integer',
  description: 'text',
  sendAt: 'text or null',
  token: 'text',
  email: 'text',
  status: 'text',
  response: 'text',
  skipReason: 'text',
  fromEmail: 'text',
  fromName: 'text',
  replyTo: 'text',
  toName: 'text',
  category: 'text',
  trackOpens: 'text',
  trackClicks: 'text',
  subject: 'text',
  html: 'text',
  text: 'text',
  templateId: 'text',
  tags: 'text',
  kind: 'text',
  copyOfToken: 'text',
  headerTo: 'text',
  cc: 'text',
  headers: 'text',
  metadata: 'text',
  attachmentCount: 'text',
  fileToken: 'text',
  filePosition: 'text',
  fileName: 'text',
  fileContentType: 'text',
  fileContentId: 'text',
  fileSize: 'text',
  fileContent: 'text',
  fileId: 'text',
} as const;
type CommitValues = SlotValues<typeof COMMIT_SLOTS>;

/**
 * The commit statement (storeAndCharge) as SQL: ONE statement — so one implicit transaction and one round trip
 * (ADR 0019) — that locks the account row, changes its balance (accounts' `adjustAccountBalanceSql`: only when the
 * account is active, still at `price` and the balance covers the cost), and only then stores the messages (in
 * request order, so the ids are one ascending run under the lock), the content of every one (a suppressed one at
 * cost 0, for the lookup), their files, their engine batches (≤ TRANSACTIONAL_ENGINE_BATCH consecutive ids each,
 * due at once or, `scheduled`, at `sendAt`) and one `send` ledger entry (billing's `ledgerEntryFromBalanceSql`, when
 * the cost is not zero). All or nothing: when the balance CTE changes no row, no CTE writes anything, and the
 * caller answers from the locked row. Its text never depends on the values: it is built once per process
 * (transactionalCommitStatement), and exported for the test that compares it with the schema.
 */
export function transactionalCommitSql(v: CommitValues, scheduled: boolean): SQL {
  const charged = sql`exists (select 1 from acct where acct.status = 'active' and acct.price_millis = ${v.price}::integer)`;
  const entry = ledgerEntryFromBalanceSql(
    {
      accountId: v.accountId,
      amountMillis: v.negativeCost,
      kind: 'send',
      emailCount: v.sendable,
      priceMillis: v.price,
      description: v.description,
    },
    'balance',
    sql`${v.cost}::bigint > 0`,
  );
  return sql`with acct as (
          select price_millis, balance_millis, status, xmin::text as row_version
          from ${accounts} where id = ${v.accountId}::uuid for update),
        balance as (${adjustAccountBalanceSql(v.accountId, v.negativeCost, charged)}),
        input as (
          select * from unnest(${v.token}::text[], ${v.email}::text[], ${v.status}::text[], ${v.response}::text[],
                               ${v.skipReason}::text[], ${v.fromEmail}::text[], ${v.fromName}::text[],
                               ${v.replyTo}::text[], ${v.toName}::text[], ${v.category}::text[],
                               ${v.trackOpens}::boolean[], ${v.trackClicks}::boolean[], ${v.subject}::text[],
                               ${v.html}::text[], ${v.text}::text[], ${v.templateId}::uuid[], ${v.tags}::text[],
                               ${v.kind}::text[], ${v.copyOfToken}::text[], ${v.headerTo}::text[], ${v.cc}::text[],
                               ${v.headers}::text[], ${v.metadata}::text[], ${v.attachmentCount}::integer[])
                        with ordinality
                   as i(token, email, status, response, skip_reason, from_email, from_name, reply_to, to_name, category, track_opens,
                        track_clicks, subject, html, text, template_id, tags, kind, copy_of_token, header_to, cc,
                        headers, metadata, attachment_count, ord)),
        m as (${enqueueMessagesSql({
          streamId: v.streamId,
          accountId: v.accountId,
          columns: {
            email: sql`i.email`,
            token: sql`i.token`,
            status: sql`i.status`,
            response: sql`i.response`,
            skipReason: sql`i.skip_reason`,
          },
          from: sql`from input i where exists (select 1 from balance) order by i.ord`,
          returning: sql`id, token, status`,
        })}),
        content as (
          insert into transactional_messages (message_id, account_id, from_email, from_name, reply_to, to_name,
                                              category, track_opens, track_clicks, subject, html, text,
                                              template_id, tags, cost_millis, recipient_kind, copy_of, header_to, cc,
                                              headers, metadata, attachment_count, send_at)
          select m.id, ${v.accountId}::uuid, i.from_email, i.from_name, i.reply_to, i.to_name, i.category,
                 i.track_opens, i.track_clicks, i.subject, i.html, i.text, i.template_id,
                 case when i.tags is null then null
                      else array(select jsonb_array_elements_text(i.tags::jsonb)) end,
                 case when m.status = 'queued' then ${v.price}::integer else 0 end, i.kind,
                 (select p.id from m p where p.token = i.copy_of_token),
                 i.header_to::jsonb, i.cc::jsonb, i.headers::jsonb, i.metadata::jsonb, i.attachment_count,
                 ${v.sendAt}::timestamptz
            from m join input i on i.token = m.token
          returning 1),
        files as (
          insert into transactional_attachments (message_id, position, account_id, filename, content_type,
                                                 content_id, size, content, file_id)
          -- An uploaded file is referred to, not copied (its bytes stay in message_files); erased since it was
          -- checked, it is null here and the engine fails and refunds the message rather than send it without.
          select m.id, f.position, ${v.accountId}::uuid, f.filename, f.content_type, f.content_id, f.size,
                 decode(f.content, 'base64'),
                 (select u.id from message_files u where u.id = f.file_id and u.account_id = ${v.accountId}::uuid)
            from unnest(${v.fileToken}::text[], ${v.filePosition}::integer[], ${v.fileName}::text[],
                        ${v.fileContentType}::text[], ${v.fileContentId}::text[], ${v.fileSize}::integer[],
                        ${v.fileContent}::text[], ${v.fileId}::uuid[])
                 as f(token, position, filename, content_type, content_id, size, content, file_id)
            join m on m.token = f.token
          returning 1),
        -- The queued messages join the stream's newest batch, or new ones (the queue's rule, ADR 0019 amendment 2),
        -- only when no other commit changed the account since this statement's snapshot (the locked row is the
        -- snapshot's row: a commit that we waited for may have made a newer batch this snapshot cannot see).
        ${queueBatchesCtes({
          streamId: v.streamId,
          queued: sql`select id from m where status = 'queued'`,
          size: TRANSACTIONAL_ENGINE_BATCH,
          ...(scheduled ? { dueAt: sql`${v.sendAt}::timestamptz` } : {}),
          extendIf: sql`(select acct.row_version from acct) = (select xmin::text from ${accounts} where id = ${v.accountId}::uuid)`,
        })},
        entry as (${entry})
        select acct.price_millis, acct.balance_millis, acct.status,
               (select balance_millis from balance) as balance_after,
               (select json_agg(json_build_array(m.id, m.token)) from m) as ids,
               (select count(*) from content) as stored, (select count(*) from batches) as batches,
               (select count(*) from files) as files,
               (select count(*) from extended) as extended,
               (select count(*) from entry) as entries
          from acct`;
}

/**
 * The commit statement built once per process (its text never changes; drizzle's building of it per group cost
 * more CPU than the rest of the commit): at once, and a scheduled send's (its batches due at `sendAt`).
 */
export const transactionalCommitStatement = {
  now: prebuildStatement('transactional_commit', COMMIT_SLOTS, (v) => transactionalCommitSql(v, false)),
  scheduled: prebuildStatement('transactional_commit_scheduled', COMMIT_SLOTS, (v) => transactionalCommitSql(v, true)),
};

const json = (value: unknown) => (value === undefined ? null : JSON.stringify(value));
const NO_FILES = pgTextArray([]);

/** The commit statement's values for these prepared messages (request order) at `price`. */
function transactionalCommitValues(
  accountId: string,
  { streamId, origin, sendAt }: PreparedTransactional,
  prepared: Prepared[],
  sendable: number,
  price: number,
): CommitValues {
  const cost = costOfEmailsMillis(sendable, price);
  // One array parameter per column, expanded with unnest: a short statement whatever the group's size.
  const col = (pick: (p: Prepared) => string | null) => pgTextArray(prepared.map(pick));
  // The files, once per message under its `to` row's token (its copies read them from there).
  const files = prepared.flatMap((p) =>
    p.kind === 'to' && p.input.attachments?.length
      ? p.input.attachments.map((a, position) => ({ token: p.token, position, a }))
      : [],
  );
  const fileCol = (pick: (f: (typeof files)[number]) => string | null) =>
    files.length === 0 ? NO_FILES : pgTextArray(files.map(pick));
  return {
    accountId,
    streamId,
    price,
    cost,
    negativeCost: -cost,
    sendable,
    // An automation's step is marketing the account set up, not an API call: the statement says which.
    description: `${origin === 'automation' ? 'Envio de automação' : 'Envio transacional'}: ${sendable} ${sendable === 1 ? 'e-mail' : 'e-mails'} × ${formatBRL(price)}`,
    sendAt: sendAt?.toISOString() ?? null,
    token: col((p) => p.token),
    email: col((p) => p.recipient.email),
    status: col((p) => (goes(p) ? 'queued' : 'skipped')),
    response: col((p) => (p.suppressedBy ? suppressedResponse(p.suppressedBy) : p.sandbox ? SANDBOX_RESPONSE : null)),
    skipReason: col((p) => (p.suppressedBy ? 'suppressed' : p.sandbox ? 'sandbox' : null) satisfies SkipReason | null),
    fromEmail: col((p) => p.input.from.email),
    fromName: col((p) => p.input.from.name ?? null),
    replyTo: col((p) => p.input.replyTo ?? null),
    toName: col((p) => p.recipient.name ?? null),
    category: col((p) => p.input.category),
    trackOpens: col((p) => String(p.input.trackOpens)),
    trackClicks: col((p) => String(p.input.trackClicks)),
    subject: col((p) => p.subject),
    html: col((p) => p.html),
    text: col((p) => p.text),
    templateId: col((p) => p.input.templateId ?? null),
    tags: col((p) => (p.input.tags ? JSON.stringify(p.input.tags) : null)),
    kind: col((p) => p.kind),
    copyOfToken: col((p) => p.copyOfToken),
    headerTo: col((p) => (p.kind === 'to' ? null : json({ email: p.input.to.email, name: p.input.to.name ?? null }))),
    cc: col((p) =>
      p.input.cc?.length ? json(p.input.cc.map((m) => ({ email: m.email, name: m.name ?? null }))) : null,
    ),
    headers: col((p) => (p.input.headers ? json(Object.entries(p.input.headers)) : null)),
    metadata: col((p) => json(p.input.metadata)),
    attachmentCount: col((p) => String(p.input.attachments?.length ?? 0)),
    fileToken: fileCol((f) => f.token),
    filePosition: fileCol((f) => String(f.position)),
    fileName: fileCol((f) => f.a.filename),
    fileContentType: fileCol((f) => f.a.contentType),
    fileContentId: fileCol((f) => f.a.contentId ?? null),
    fileSize: fileCol((f) => String(f.a.size)),
    fileContent: fileCol((f) => ('content' in f.a ? f.a.content : null)),
    fileId: fileCol((f) => ('fileId' in f.a ? f.a.fileId : null)),
  };
}

/** Runs the commit statement (transactionalCommitSql) for these prepared messages at `price`. */
async function storeAndCharge(
  db: Db,
  accountId: string,
  request: PreparedTransactional,
  prepared: Prepared[],
  sendable: number,
  price: number,
): Promise<StoreOutcome> {
  const [row] = await queryPrebuilt<
    {
      price_millis: number;
      balance_millis: number | string;
      status: string;
      balance_after: number | string | null;
      ids: [number | string, string][] | string | null;
    },
    typeof COMMIT_SLOTS
  >(
    db,
    request.sendAt ? transactionalCommitStatement.scheduled : transactionalCommitStatement.now,
    transactionalCommitValues(accountId, request, prepared, sendable, price),
    { named: prepared.length <= NAMED_STATEMENT_MAX_MESSAGES },
  );
  if (!row) return { account: null, balanceAfterMillis: null, idByToken: new Map() };
  const pairs = (typeof row.ids === 'string' ? JSON.parse(row.ids) : (row.ids ?? [])) as [number | string, string][];
  return {
    account: { priceMillis: Number(row.price_millis), balanceMillis: Number(row.balance_millis), status: row.status },
    balanceAfterMillis: row.balance_after === null ? null : Number(row.balance_after),
    idByToken: new Map(pairs.map(([id, token]) => [token, Number(id)])),
  };
}
