import { randomUUID } from 'node:crypto';
import type { SegmentCondition, SegmentGroup } from '@carteiro/shared';
import { sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededRandom } from '../../../test/support/seeded-random';
import { type SignedInUser, signUp } from '../../../test/support/sign-in';
import { createTestApp, type TestApp } from '../../../test/support/test-app';
import { DATABASE_KINDS } from '../../../test/support/test-database';
import { type Db, queryRows } from '../../db/database';
import { pgTextArray } from '../../db/pg-text-array';
import { recentSentCampaignIds } from '../campaigns/campaign-directory';
import { compileSegment, monthIn } from './compile-segment';
import { segmentContextFor } from './segments';

/**
 * Number and date conditions read custom fields written as text. The SQL recognises a number (`-?`, 1–15 digits,
 * optionally `.` or `,` and 1–12 digits) and a date (AAAA-MM-DD[…] or DD/MM/AAAA) by its shape; this test checks
 * the contacts each operator selects against a plain TypeScript evaluation of the documented rules (regular
 * expressions, exact decimal comparison) over generated field values: near-misses of every form, too many
 * digits, stray signs and separators, non-ASCII digits, spaces around.
 */

/** PostgreSQL's btrim(x): spaces only. */
const btrim = (x: string) => x.replace(/^ +| +$/g, '');

function jsNumber(raw: string): string | null {
  const s = btrim(raw).replaceAll(',', '.');
  return /^-?[0-9]{1,15}([.][0-9]{1,12})?$/.test(s) ? s : null;
}

/** Exact comparison of two decimal strings of the form above: -1, 0 or 1. */
function compareDecimal(a: string, b: string): number {
  const parts = (x: string) => {
    const negative = x.startsWith('-');
    const [int = '', frac = ''] = (negative ? x.slice(1) : x).split('.');
    const digits = `${int.replace(/^0+/, '').padStart(16, '0')}${frac.padEnd(13, '0')}`;
    return { negative: negative && /[1-9]/.test(digits), digits };
  };
  const x = parts(a);
  const y = parts(b);
  if (x.negative !== y.negative) return x.negative ? -1 : 1;
  const magnitude = x.digits < y.digits ? -1 : x.digits > y.digits ? 1 : 0;
  return x.negative ? -magnitude : magnitude;
}

function jsIsoDate(raw: string): string | null {
  const t = btrim(raw);
  if (/^[0-9]{4}-[0-9]{2}-[0-9]{2}/.test(t)) return t.slice(0, 10);
  if (/^[0-9]{2}\/[0-9]{2}\/[0-9]{4}$/.test(t)) return `${t.slice(6, 10)}-${t.slice(3, 5)}-${t.slice(0, 2)}`;
  return null;
}

/**
 * `conditions` where a number or date is parsed per contact: in an E of several conditions (with one every contact
 * passes) under an OU (with one no contact passes), so the tree selects exactly what `conditions` select.
 */
function screenedTree(...conditions: SegmentCondition[]): SegmentGroup {
  const everyone: SegmentCondition = { type: 'field', field: 'email', operator: 'contains', value: '@' };
  const nobody: SegmentCondition = { type: 'field', field: 'email', operator: 'equals', value: 'ninguem' };
  return {
    type: 'group',
    match: 'any',
    conditions: [{ type: 'group', match: 'all', conditions: [everyone, ...conditions] }, nobody],
  };
}

/** Field values: valid numbers and dates, each sometimes bent by one character, and noise. */
function generatedValues(count: number): string[] {
  const next = seededRandom(26_11_2026).next;
  const int = (n: number) => Math.floor(next() * n);
  const digits = (n: number) => Array.from({ length: n }, () => String(int(10))).join('');
  const noise = ['-', '.', ',', '/', ' ', 'T', '٣', 'a', '+', 'e', '0', '9', '--', '١'];
  const values: string[] = [];
  for (let i = 0; i < count; i++) {
    let v: string;
    switch (int(5)) {
      case 0:
        v = `${next() < 0.3 ? '-' : ''}${digits(1 + int(17))}`;
        break;
      case 1:
        v = `${next() < 0.3 ? '-' : ''}${digits(int(17))}${next() < 0.5 ? '.' : ','}${digits(int(14))}`;
        break;
      case 2:
        v = `${digits(4)}-${digits(2)}-${digits(2)}${next() < 0.3 ? `T${digits(2)}:00:00Z` : ''}`;
        break;
      case 3:
        v = `${digits(2)}/${digits(2)}/${digits(4)}`;
        break;
      default:
        v = Array.from({ length: 1 + int(8) }, () => (next() < 0.5 ? digits(1) : noise[int(noise.length)])).join('');
    }
    if (next() < 0.25) {
      const at = int(v.length + 1);
      v = `${v.slice(0, at)}${noise[int(noise.length)]}${v.slice(at + (next() < 0.5 ? 1 : 0))}`;
    }
    if (next() < 0.15) v = ` ${v}  `;
    values.push(v);
  }
  return values;
}

const NUMBER_OPERATORS = {
  number_eq: (c: number) => c === 0,
  number_gt: (c: number) => c > 0,
  number_gte: (c: number) => c >= 0,
  number_lt: (c: number) => c < 0,
  number_lte: (c: number) => c <= 0,
} as const;
const NUMBERS = ['0', '10', '10,5', '-3', '250', '999999999999999', '1.000000000001', '-0,5'];
const DATES = ['1990-05-05', '2000-02-29', '1980-01-01', '2024-12-31'];

describe.each(DATABASE_KINDS)('number and date conditions against their definition on %s', (kind) => {
  let t: TestApp;
  let db: Db;
  let user: SignedInUser;
  const values = generatedValues(1500);
  /** contact id → the field's text (undefined: the contact has no such field). */
  const byContact = new Map<string, string | undefined>();

  beforeAll(async () => {
    t = await createTestApp(kind);
    db = t.database.db;
    user = await signUp(t, { verified: true });
    const ids: string[] = [];
    const fields: string[] = [];
    for (const [i, value] of [...values, undefined].entries()) {
      const id = randomUUID();
      ids.push(id);
      fields.push(JSON.stringify(value === undefined ? { outro: 'x' } : { v: value }));
      byContact.set(id, value);
      if (i === 0) fields[0] = JSON.stringify({ v: value, outro: 'x' });
    }
    await db.execute(
      sql`insert into contacts (id, account_id, email, fields)
          select u.id::uuid, ${user.accountId}::uuid, 'c' || u.n || '@exemplo.com.br', u.fields::jsonb
            from unnest(${pgTextArray(ids)}::text[], ${pgTextArray(fields)}::text[]) with ordinality as u(id, fields, n)`,
    );
  }, 120_000);

  afterAll(async () => {
    await t.close();
  });

  /**
   * The contacts a condition selects, in the two places it compiles differently: alone (a conjunct of the top-level
   * E: the typed projection's index range) and screened (inside an E of several conditions under an OU: the
   * field's text parsed per contact). Both must select the same contacts.
   */
  async function selected(condition: SegmentCondition, now: Date): Promise<string[]> {
    const alone = await selectedBy({ type: 'group', match: 'all', conditions: [condition] }, now);
    const screened = await selectedBy(screenedTree(condition), now);
    expect(alone.text).toContain('contact_field_values');
    expect(screened.text).toMatch(/contact_field_(number|day)\(/);
    expect(screened.text).not.toContain('contact_field_values');
    expect(screened.ids).toEqual(alone.ids);
    return alone.ids;
  }

  async function selectedBy(tree: SegmentGroup, now: Date): Promise<{ ids: string[]; text: string }> {
    const compiled = compileSegment(
      tree,
      await segmentContextFor(db, user.accountId, [tree], recentSentCampaignIds, now),
    );
    const query = sql`select c.id::text as id from contacts c ${compiled.joins}
                       where c.account_id = ${user.accountId} and ${compiled.where}`;
    const rows = await queryRows<{ id: string }>(db, query);
    return { ids: rows.map((r) => r.id).sort(), text: new PgDialect().sqlToQuery(query).sql };
  }

  const expected = (test: (raw: string) => boolean) =>
    [...byContact.entries()]
      .filter(([, raw]) => test(raw ?? ''))
      .map(([id]) => id)
      .sort();

  it('the generated values are not degenerate: many numbers and dates, many near-misses', () => {
    const numbers = values.filter((v) => jsNumber(v) !== null).length;
    const dates = values.filter((v) => jsIsoDate(v) !== null).length;
    expect(numbers).toBeGreaterThan(300);
    expect(values.length - numbers - dates).toBeGreaterThan(300);
    expect(dates).toBeGreaterThan(300);
  });

  it('a field parsed per contact is the functions inlined into the plan, not calls of them (a call cost 5×)', async () => {
    const tree = screenedTree(
      { type: 'field', field: { custom: 'v' }, operator: 'number_gte', value: '10' },
      { type: 'field', field: { custom: 'v' }, operator: 'date_before', value: '2000-01-01' },
    );
    const compiled = compileSegment(
      tree,
      await segmentContextFor(db, user.accountId, [tree], recentSentCampaignIds, new Date()),
    );
    const plan = await queryRows<{ 'QUERY PLAN': string }>(
      db,
      sql`explain (verbose, costs off) select count(*) from contacts c ${compiled.joins}
           where c.account_id = ${user.accountId} and ${compiled.where}`,
    );
    const text = plan.map((r) => r['QUERY PLAN']).join('\n');
    expect(text).toContain('translate(');
    expect(text).not.toMatch(/contact_field_(number|day)\(/);
  });

  it('number conditions select exactly the values that are numbers and compare so', async () => {
    const now = new Date('2026-11-26T12:00:00Z');
    for (const [operator, holds] of Object.entries(NUMBER_OPERATORS)) {
      for (const value of NUMBERS) {
        const condition = { type: 'field', field: { custom: 'v' }, operator, value } as SegmentCondition;
        const target = value.replace(',', '.');
        const want = expected((raw) => {
          const n = jsNumber(raw);
          return n !== null && holds(compareDecimal(n, target));
        });
        expect({ operator, value, ids: await selected(condition, now) }).toEqual({ operator, value, ids: want });
      }
    }
  }, 120_000);

  it('date conditions and "aniversário este mês" select exactly the values that are dates and compare so', async () => {
    for (const nowIso of ['2026-11-26T12:00:00Z', '2027-03-01T02:00:00Z', '2026-05-31T12:00:00Z']) {
      const now = new Date(nowIso);
      for (const value of DATES) {
        for (const [operator, holds] of [
          ['date_on', (d: string) => d === value],
          ['date_before', (d: string) => d < value],
          ['date_after', (d: string) => d > value],
        ] as const) {
          const condition = { type: 'field', field: { custom: 'v' }, operator, value } as SegmentCondition;
          const want = expected((raw) => {
            const d = jsIsoDate(raw);
            return d !== null && holds(d);
          });
          expect({ operator, value, ids: await selected(condition, now) }).toEqual({ operator, value, ids: want });
        }
      }
      const month = monthIn(now, 'America/Sao_Paulo');
      const birthday = { type: 'field', field: { custom: 'v' }, operator: 'birthday_this_month' } as SegmentCondition;
      const want = expected((raw) => jsIsoDate(raw)?.slice(5, 7) === month);
      expect(await selected(birthday, now)).toEqual(want);
    }
  }, 120_000);
});
