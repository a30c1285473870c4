import { describe, expect, it } from 'vitest';
import { labelBudget, shortLabel } from './recent-campaigns-chart';

/** What a 12 px label of `chars` characters takes at most (the widest glyphs, "W" and "M", are ≈ 11 px). */
const typicalWidth = (chars: number) => chars * 7;

describe('campaign names under the home chart', () => {
  it('fit their group of bars at a phone width, with a gap between neighbours', () => {
    // 375 px screen: the card leaves ≈ 295 px to the chart.
    for (const groups of [1, 3, 5, 8]) {
      const budget = labelBudget(295, groups);
      const slot = (295 - 44 - 8) / groups;
      expect(typicalWidth(budget), `${groups} campanhas`).toBeLessThan(slot);
    }
    expect(shortLabel('Natal 2026 — ofertas da semana', labelBudget(295, 5))).toBe('Nata…');
  });

  it('keeps whole names when they fit (desktop, few campaigns)', () => {
    expect(shortLabel('Natal 2026', labelBudget(900, 3))).toBe('Natal 2026');
    expect(labelBudget(900, 3)).toBeGreaterThanOrEqual(20);
  });
});
