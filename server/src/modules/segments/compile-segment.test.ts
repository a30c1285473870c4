import type { SegmentGroup } from '@carteiro/shared';
import { PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { compileSegment, compileSegmentPredicate, type SegmentContext } from './compile-segment';

const ctx: SegmentContext = {
  accountId: '00000000-0000-4000-8000-000000000001',
  customFieldKeys: new Set(['nascimento', 'pontos']),
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
          // Number and date operators on the name are parsed per contact; on a custom field they read
          // contact_field_values.
          { type: 'field', field: 'name', operator: 'date_before', value: '1980-01-01' },
          { type: 'field', field: 'name', operator: 'number_gt', value: '10' },
          { type: 'field', field: 'name', operator: 'contains', value: 'ana' },
          { type: 'field', field: { custom: 'pontos' }, operator: 'number_gt', value: '10' },
          { type: 'engagement', operator: 'opened_any', campaigns: 1 },
          { type: 'status', operator: 'is', value: 'subscribed' },
        ],
      },
      { type: 'status', operator: 'is', value: 'bounced' },
    ],
  };

  const at = (where: string) => (needle: string) => {
    const i = where.indexOf(needle);
    expect(i, needle).toBeGreaterThanOrEqual(0);
    return i;
  };

  it('puts column checks first, then set checks and typed custom fields, text, numbers and dates last', () => {
    const where = at(text(compileSegment(tree, ctx).where));
    // A typed custom field inside an OU is an EXISTS on contact_field_values (a hashed SubPlan), in the user's
    // order among the joined sets' checks.
    expect(where('c.status')).toBeLessThan(where('exists (select 1 from (select t.contact_id from contact_field_values'));
    expect(where('contact_field_values')).toBeLessThan(where('g.last_opened_campaign_id'));
    expect(where('g.last_opened_campaign_id')).toBeLessThan(where('strpos('));
    expect(where('strpos(')).toBeLessThan(where('translate('));
    expect(where('translate(')).toBeLessThan(where('~'));
  });

  it('reads every opened/clicked condition of the tree from one join of segment_engagement', () => {
    const several: SegmentGroup = {
      type: 'group',
      match: 'any',
      conditions: [
        tree,
        { type: 'engagement', operator: 'clicked_any', campaigns: 1 },
        { type: 'engagement', operator: 'opened_none', campaigns: 1 },
      ],
    };
    const compiled = compileSegment(several, ctx);
    expect(text(compiled.joins).match(/segment_engagement/g)).toHaveLength(1);
    expect(text(compiled.where)).toContain('g.last_clicked_campaign_id');
    expect(compiled.hasSets).toBe(true);
  });

  it("in the predicate form a typed field's EXISTS goes first, an engagement EXISTS inside an OU after the parsed fields", () => {
    const where = at(text(compileSegmentPredicate(tree, ctx)));
    expect(where('contact_field_values')).toBeLessThan(where('strpos('));
    expect(where('~')).toBeGreaterThan(0);
    expect(where('segment_engagement')).toBeGreaterThan(where('~'));
  });
});
