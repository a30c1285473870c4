import type { SegmentGroup } from '@carteiro/shared';
import { PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { compileSegment, compileSegmentPredicate, type SegmentContext } from './compile-segment';

const ctx: SegmentContext = {
  accountId: '00000000-0000-4000-8000-000000000001',
  customFields: new Map([
    ['nascimento', null],
    ['pontos', null],
  ]),
  listIds: new Set(),
  timeZone: 'America/Sao_Paulo',
  now: new Date('2026-11-26T12:00:00Z'),
  recentCampaignIds: ['00000000-0000-4000-8000-0000000000c1'],
};
const text = (q: Parameters<PgDialect['sqlToQuery']>[0]) => new PgDialect().sqlToQuery(q).sql;

describe('compiled segment: operand order inside E and OU', () => {
  // The user wrote the dearest condition first; PostgreSQL would evaluate a nested E in that order.
  const tree: SegmentGroup = {
    type: 'group',
    match: 'any',
    conditions: [
      {
        type: 'group',
        match: 'all',
        conditions: [
          { type: 'field', field: { custom: 'nascimento' }, operator: 'date_before', value: '1980-01-01' },
          { type: 'field', field: { custom: 'pontos' }, operator: 'number_gt', value: '10' },
          { type: 'engagement', operator: 'opened_any', campaigns: 1 },
          { type: 'status', operator: 'is', value: 'subscribed' },
        ],
      },
      { type: 'status', operator: 'is', value: 'bounced' },
    ],
  };

  it('puts column checks first, then set checks, text, numbers and dates last', () => {
    const where = text(compileSegment(tree, ctx).where);
    const at = (needle: string) => {
      const i = where.indexOf(needle);
      expect(i, needle).toBeGreaterThanOrEqual(0);
      return i;
    };
    expect(at('c.status')).toBeLessThan(at('s1.contact_id'));
    expect(at('s1.contact_id')).toBeLessThan(at('contact_field_number('));
    expect(at('contact_field_number(')).toBeLessThan(at('contact_field_day('));
  });

  it('reads the engagement conditions of the one group that has any as one set: the rows where they differ from no row', () => {
    const one: SegmentGroup = {
      type: 'group',
      match: 'any',
      conditions: [
        { type: 'status', operator: 'is', value: 'bounced' },
        { type: 'engagement', operator: 'opened_none', campaigns: 1 },
        { type: 'engagement', operator: 'never_opened' },
      ],
    };
    const compiled = compileSegment(one, ctx);
    const joins = text(compiled.joins);
    expect(joins.match(/segment_engagement/g)).toHaveLength(1);
    // "Nunca abriu" is true without a row: the set holds the rows where the OU is false, tested negated.
    expect(joins).toContain('not (((g.last_delivered_campaign_id');
    expect(joins).toContain('or not g.ever_opened)');
    expect(text(compiled.where)).toContain('not s1.contact_id is not null');
    expect(compiled.hasSets).toBe(true);
  });

  it('reads the engagement conditions of several nested groups from one join of the row narrowed to a boolean per test', () => {
    const several: SegmentGroup = {
      type: 'group',
      match: 'all',
      conditions: [
        { type: 'engagement', operator: 'never_opened' },
        {
          type: 'group',
          match: 'any',
          conditions: [
            tree,
            { type: 'engagement', operator: 'clicked_any', campaigns: 1 },
            { type: 'engagement', operator: 'opened_none', campaigns: 1 },
          ],
        },
      ],
    };
    const compiled = compileSegment(several, ctx);
    const joins = text(compiled.joins);
    const where = text(compiled.where);
    expect(joins.match(/segment_engagement/g)).toHaveLength(1);
    // Each test is a column of the joined sub-query; the tree reads only those columns, never the row's own.
    expect(joins).toMatch(/left join \(select g\.contact_id, .* as e1, .* as e4 from segment_engagement g/s);
    expect(where).not.toContain('g.last_');
    expect(where).not.toContain('g.ever_opened');
    // Without a row a contact never opened ("is not false" of a null) and opened, clicked and missed nothing.
    expect(where).toContain('g.e1 is not false');
    expect(where).toContain('g.e2 is true');
    expect(where).toContain('g.e4 is true');
    expect(compiled.hasSets).toBe(true);
  });

  it('joins the whole segment_engagement row when an engagement condition is a conjunct of the top-level E', () => {
    const conjunct: SegmentGroup = {
      type: 'group',
      match: 'all',
      conditions: [{ type: 'engagement', operator: 'clicked_any', campaigns: 1 }, tree],
    };
    const compiled = compileSegment(conjunct, ctx);
    expect(text(compiled.joins)).toMatch(/left join segment_engagement g\s+on/);
    expect(text(compiled.where)).toContain('g.last_opened_campaign_id');
  });

  it('reads a typed custom field from contact_field_values where every contact reaches it, and parses it below an E of several conditions', () => {
    const mixed: SegmentGroup = {
      type: 'group',
      match: 'any',
      conditions: [
        tree,
        { type: 'field', field: { custom: 'nascimento' }, operator: 'birthday_this_month' },
        {
          type: 'group',
          match: 'any',
          conditions: [
            { type: 'status', operator: 'is', value: 'bounced' },
            { type: 'field', field: { custom: 'pontos' }, operator: 'number_lt', value: '0' },
          ],
        },
      ],
    };
    // The birthday and the nested OU's number: two joined sets of contact_field_values, checked ahead of the E
    // whose number and date are parsed.
    const compiled = compileSegment(mixed, ctx);
    expect(text(compiled.joins).match(/left join \(select t\.contact_id from contact_field_values/g)).toHaveLength(2);
    const where = text(compiled.where);
    expect(where.indexOf('s1.contact_id')).toBeLessThan(where.indexOf('contact_field_number('));
    expect(where.indexOf('contact_field_number(')).toBeLessThan(where.indexOf('contact_field_day('));
    // The predicate form: the same two sets as EXISTS, the parsed fields as well.
    const predicate = text(compileSegmentPredicate(mixed, ctx));
    expect(predicate.match(/exists \(select 1 from \(select t\.contact_id from contact_field_values/g)).toHaveLength(2);
    expect(predicate).toContain('contact_field_number(');
  });

  it('in the predicate form an EXISTS inside an OU goes after the field conditions', () => {
    const where = text(compileSegmentPredicate(tree, ctx));
    expect(where.indexOf('contact_field_day(')).toBeGreaterThan(0);
    expect(where.indexOf('exists')).toBeGreaterThan(where.indexOf('contact_field_day('));
  });
});
