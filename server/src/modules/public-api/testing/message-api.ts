import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { bearer, createApiKeyFor } from '../../../../test/support/api-key';
import { type SignedInUser, signUp } from '../../../../test/support/sign-in';
import type { TestApp } from '../../../../test/support/test-app';
import { accounts } from '../../accounts/accounts.db';
import { trustSenderAddress } from '../../sender-identities/testing/trust-sender';
import { messages } from '../../sending/messages.db';
import { creditAccount } from '../../sending/testing/send-fixtures';

/** The From every message suite sends with: trusted for each account `keyWithCredit` makes. */
export const API_SENDER = 'pedidos@loja.com.br';

const json = { 'content-type': 'application/json' };

/** A `POST /api/v1/messages` body to `to` from API_SENDER; `content` gives its subject and body (and any field). */
export function messageTo(to: string, content: Record<string, unknown>): Record<string, unknown> {
  return { to: { email: to }, from: { email: API_SENDER, name: 'Loja' }, ...content };
}

export interface KeyOptions {
  /** `test` makes a `ct_test_…` key (through the dashboard, as a user does); default `live`. */
  mode?: 'live' | 'test';
  /** Default `send_only`, the key an integration sends with. */
  scope?: 'full' | 'send_only';
}

/**
 * The public-API message suites' one set-up: a verified account with credit, a trusted sender and a key, calls
 * with that key, and the two facts the suites read back (balance, engine status). `suite` is read lazily, so the
 * engine harness (or any holder of a test app made in `beforeAll`) can be passed at describe time.
 */
export function messageApi(suite: { readonly t: TestApp }) {
  const db = () => suite.t.database.db;

  /** A new key of `user`'s account. */
  async function keyOf(user: SignedInUser, { mode = 'live', scope = 'send_only' }: KeyOptions = {}): Promise<string> {
    if (mode === 'live') return createApiKeyFor(suite.t, user, scope);
    const created = await suite.t.app.inject({
      method: 'POST',
      url: '/api/api-keys',
      headers: { ...user.headers, ...json },
      payload: { name: 'Homologação', scope, mode },
    });
    if (created.statusCode !== 201) throw new Error(`test key not created: ${created.body}`);
    return created.json().secret as string;
  }

  /** A verified account with `creditMillis` of balance and API_SENDER trusted, and a key of it. */
  async function keyWithCredit(creditMillis: number, options: KeyOptions = {}) {
    const user = await signUp(suite.t, { verified: true });
    if (creditMillis > 0) await creditAccount(db(), user.accountId, creditMillis);
    await trustSenderAddress(db(), user.accountId, API_SENDER);
    return { user, secret: await keyOf(user, options) };
  }

  /** A request with the key (JSON when there is a payload). */
  function call(
    secret: string,
    method: 'GET' | 'POST' | 'DELETE',
    url: string,
    payload?: object,
    headers: Record<string, string> = {},
  ): Promise<LightMyRequestResponse> {
    return suite.t.app.inject({
      method,
      url,
      headers: bearer(secret, payload === undefined ? headers : { ...json, ...headers }),
      ...(payload === undefined ? {} : { payload }),
    });
  }

  async function balanceOf(accountId: string): Promise<number> {
    const [row] = await db()
      .select({ balance: accounts.balanceMillis })
      .from(accounts)
      .where(eq(accounts.id, accountId));
    return Number(row?.balance);
  }

  /** The engine's status of a message (`queued`, `sent`, `skipped`…), by the id the API answered. */
  async function statusOf(id: string | number): Promise<string | undefined> {
    const [row] = await db()
      .select({ status: messages.status })
      .from(messages)
      .where(eq(messages.id, Number(id)));
    return row?.status;
  }

  return { keyOf, keyWithCredit, call, balanceOf, statusOf };
}
