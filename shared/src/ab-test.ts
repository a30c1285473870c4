import type { AbCriterion } from './schemas/campaign';
import { AB_VARIANT_LETTERS } from './schemas/campaign';

/** A/B tests: the split, the winner rule and its pt-BR explanation, shared by the server and the web. */

/** The variant's letter: 0 → "A" (the campaign itself), 1 → "B"… */
export function abVariantLetter(index: number): string {
  return AB_VARIANT_LETTERS[index] ?? String(index + 1);
}

/**
 * How many of `total` snapshotted recipients get the test: `testPercent` % rounded, but at least one per variant
 * (when the audience has that many) and never more than the audience. The test recipients are split evenly
 * among the variants (sizes differ by at most 1, the first variants getting the extra ones).
 */
export function abTestSize(total: number, testPercent: number, variantCount: number): number {
  return Math.min(total, Math.max(variantCount, Math.round((total * testPercent) / 100)));
}

export interface AbVariantCounts {
  index: number;
  delivered: number;
  uniqueOpens: number;
  uniqueClicks: number;
}

const hits = (v: AbVariantCounts, criterion: AbCriterion) => (criterion === 'opens' ? v.uniqueOpens : v.uniqueClicks);

/** The variant's rate by the criterion: unique human opens (or unique clicks) over delivered; 0 when none delivered. */
export function abRate(v: AbVariantCounts, criterion: AbCriterion): number {
  return v.delivered > 0 ? hits(v, criterion) / v.delivered : 0;
}

/**
 * The winner: the highest rate (unique human opens or unique clicks over delivered). Rates are compared exactly
 * (cross-multiplied integers, no float rounding). A tie goes to the lowest variant index (A before B), so the
 * campaign as written wins when the variants do no better.
 */
export function pickAbWinner(variants: AbVariantCounts[], criterion: AbCriterion): number {
  let best: AbVariantCounts | null = null;
  for (const v of [...variants].sort((a, b) => a.index - b.index)) {
    if (!best) {
      best = v;
      continue;
    }
    // v beats best when hits(v)/delivered(v) > hits(best)/delivered(best); 0 delivered counts as a rate of 0.
    const left = v.delivered > 0 ? hits(v, criterion) * Math.max(best.delivered, 1) : 0;
    const right = best.delivered > 0 ? hits(best, criterion) * Math.max(v.delivered, 1) : 0;
    if (left > right) best = v;
  }
  if (!best) throw new Error('an A/B test has at least two variants');
  return best.index;
}

/** "31,2%": always one decimal, pt-BR comma, no space before the sign (as the dashboard's reports write rates). */
export function formatPercent(rate: number): string {
  return `${(Math.round(rate * 1000) / 10).toFixed(1).replace('.', ',')}%`;
}

const CRITERION_WORDS: Record<AbCriterion, { noun: string; note: string }> = {
  opens: { noun: 'aberturas', note: ' (aberturas automáticas não contam)' },
  clicks: { noun: 'cliques', note: '' },
};

/** The criterion in words, for the editor and the report: "taxa de aberturas" / "taxa de cliques". */
export function abCriterionLabel(criterion: AbCriterion): string {
  return `taxa de ${CRITERION_WORDS[criterion].noun}`;
}

/**
 * Why the winner won, in pt-BR: "Variante B venceu: 31,2% de aberturas contra 24,5% (aberturas automáticas não
 * contam)." With more variants the others are named: "contra 24,5% (A) e 20,1% (C)". A tie says that the
 * first of the tied variants wins.
 */
export function abWinnerReason(variants: AbVariantCounts[], criterion: AbCriterion, winner: number): string {
  const words = CRITERION_WORDS[criterion];
  const won = variants.find((v) => v.index === winner);
  if (!won) return '';
  const rate = abRate(won, criterion);
  const others = variants.filter((v) => v.index !== winner).sort((a, b) => a.index - b.index);
  const tied = others.filter((v) => hits(v, criterion) * won.delivered === hits(won, criterion) * v.delivered);
  const letter = abVariantLetter(winner);
  if (variants.every((v) => hits(v, criterion) === 0)) {
    return `Nenhuma variante teve ${words.noun}${words.note}: vence a variante ${letter}, a primeira, por desempate.`;
  }
  if (tied.length > 0) {
    return `Empate em ${formatPercent(rate)} de ${words.noun}${words.note}: vence a variante ${letter}, a primeira das empatadas.`;
  }
  const against =
    others.length === 1
      ? formatPercent(abRate(others[0] as AbVariantCounts, criterion))
      : joinPt(others.map((v) => `${formatPercent(abRate(v, criterion))} (${abVariantLetter(v.index)})`));
  return `Variante ${letter} venceu: ${formatPercent(rate)} de ${words.noun} contra ${against}${words.note}.`;
}

function joinPt(items: string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} e ${items[items.length - 1]}`;
}
