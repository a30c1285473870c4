import { describe, expect, it } from 'vitest';
import { abTestSize, abWinnerReason, formatPercent, pickAbWinner } from './ab-test';

const v = (index: number, delivered: number, uniqueOpens: number, uniqueClicks = 0) => ({
  index,
  delivered,
  uniqueOpens,
  uniqueClicks,
});

describe('A/B test rules', () => {
  it('sizes the test share: the percentage rounded, at least one per variant, never more than the audience', () => {
    expect(abTestSize(1000, 20, 2)).toBe(200);
    expect(abTestSize(101, 15, 3)).toBe(15);
    expect(abTestSize(5, 10, 4)).toBe(4);
    expect(abTestSize(3, 50, 4)).toBe(3);
  });

  it('picks the highest rate over delivered, exactly (no float rounding), ties to the lowest index', () => {
    expect(pickAbWinner([v(0, 100, 20), v(1, 50, 11)], 'opens')).toBe(1);
    // 1/3 vs 2/6: the same rate, A wins.
    expect(pickAbWinner([v(0, 3, 1), v(1, 6, 2)], 'opens')).toBe(0);
    expect(pickAbWinner([v(1, 6, 2), v(0, 3, 1)], 'opens')).toBe(0);
    expect(pickAbWinner([v(0, 10, 9, 0), v(1, 10, 1, 1)], 'clicks')).toBe(1);
    // A variant nothing was delivered to has a rate of 0.
    expect(pickAbWinner([v(0, 0, 0), v(1, 10, 1)], 'opens')).toBe(1);
    expect(pickAbWinner([v(0, 10, 0), v(1, 0, 0), v(2, 0, 0)], 'opens')).toBe(0);
  });

  it('explains the decision in pt-BR', () => {
    expect(formatPercent(0.312)).toBe('31,2%');
    expect(abWinnerReason([v(0, 200, 49), v(1, 200, 62)], 'opens', 1)).toBe(
      'Variante B venceu: 31,0% de aberturas contra 24,5% (aberturas automáticas não contam).',
    );
    expect(abWinnerReason([v(0, 10, 0, 1), v(1, 10, 0, 3), v(2, 10, 0, 2)], 'clicks', 1)).toBe(
      'Variante B venceu: 30,0% de cliques contra 10,0% (A) e 20,0% (C).',
    );
    expect(abWinnerReason([v(0, 10, 2), v(1, 10, 2)], 'opens', 0)).toBe(
      'Empate em 20,0% de aberturas (aberturas automáticas não contam): vence a variante A, a primeira das empatadas.',
    );
    expect(abWinnerReason([v(0, 10, 0), v(1, 10, 0)], 'clicks', 0)).toBe(
      'Nenhuma variante teve cliques: vence a variante A, a primeira, por desempate.',
    );
  });
});
