import { describe, expect, it } from 'vitest';
import {
  assertTransition,
  CAMPAIGN_STATUSES,
  CAMPAIGN_TRANSITIONS,
  canTransition,
  isDeletable,
  isEditable,
  refusedTransitionMessage,
} from './campaign-status';

describe('campaign status machine', () => {
  it.each([
    ['draft', 'scheduled'],
    ['draft', 'sending'],
    ['draft', 'cancelled'],
    ['scheduled', 'draft'],
    ['scheduled', 'sending'],
    ['scheduled', 'cancelled'],
    ['sending', 'paused'],
    ['sending', 'sent'],
    ['sending', 'cancelled'],
    ['sending', 'failed'],
    ['paused', 'sending'],
    ['paused', 'cancelled'],
  ] as const)('allows %s → %s', (from, to) => {
    expect(canTransition(from, to)).toBe(true);
    expect(assertTransition(from, to)).toBe(to);
  });

  it.each([
    ['draft', 'sent'],
    ['draft', 'paused'],
    ['scheduled', 'paused'],
    ['sending', 'draft'],
    ['sending', 'scheduled'],
    ['paused', 'sent'],
    ['paused', 'draft'],
    ['sent', 'draft'],
    ['sent', 'sending'],
    ['cancelled', 'draft'],
    ['cancelled', 'sending'],
    ['failed', 'sending'],
    ['draft', 'draft'],
  ] as const)('refuses %s → %s with a pt-BR message', (from, to) => {
    expect(canTransition(from, to)).toBe(false);
    expect(refusedTransitionMessage(from, to)).toMatch(/campanha/);
    expect(() => assertTransition(from, to)).toThrow(/campanha/);
  });

  it('uses the caller-supplied error type', () => {
    class Conflict extends Error {}
    expect(() => assertTransition('sent', 'draft', (m) => new Conflict(m))).toThrow(Conflict);
  });

  it('has final statuses with no way out and every target is a known status', () => {
    for (const status of ['sent', 'cancelled', 'failed'] as const) expect(CAMPAIGN_TRANSITIONS[status]).toEqual([]);
    for (const targets of Object.values(CAMPAIGN_TRANSITIONS))
      for (const target of targets) expect(CAMPAIGN_STATUSES).toContain(target);
  });

  it('allows editing only before sending starts and deleting only drafts', () => {
    expect(CAMPAIGN_STATUSES.filter(isEditable)).toEqual(['draft', 'scheduled']);
    expect(CAMPAIGN_STATUSES.filter(isDeletable)).toEqual(['draft']);
  });
});
