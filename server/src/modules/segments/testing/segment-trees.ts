import type { SegmentCondition, SegmentGroup } from '@carteiro/shared';

/** An E group of the conditions (tests and bench:segments write their trees with these). */
export const all = (...conditions: Array<SegmentCondition | SegmentGroup>): SegmentGroup => ({
  type: 'group',
  match: 'all',
  conditions,
});

/** An OU group of the conditions. */
export const any = (...conditions: Array<SegmentCondition | SegmentGroup>): SegmentGroup => ({
  type: 'group',
  match: 'any',
  conditions,
});
