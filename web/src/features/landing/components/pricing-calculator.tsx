import {
  calculatorCostMillis,
  formatBRL,
  formatBRLCurrency,
  hasFractionOfCent,
  PRICE_PER_EMAIL_MILLIS,
} from '@carteiro/shared';
import { useId, useState } from 'react';
import { FieldError } from '@/components/ui/label';
import { useI18n } from '@/lib/i18n';

/**
 * The landing calculator (spec §2, §5): number of e-mails → cost in pt-BR BRL currency format (whole cents,
 * rounded half up; ADR 0017). When the exact amount has a fraction of a cent, a line below gives the exact
 * amount the balance would be charged (millis, as the ledger books it).
 * Empty counts as 0; a negative or non-integer amount shows an inline message instead of a price.
 */
export function PricingCalculator({ priceMillis = PRICE_PER_EMAIL_MILLIS }: { priceMillis?: number }) {
  const { t } = useI18n();
  const [amount, setAmount] = useState('1000');
  const inputId = useId();
  const hintId = useId();
  const errorId = useId();
  const cost = calculatorCostMillis(amount, priceMillis);
  const invalid = cost === null;

  return (
    <div className="rounded-2xl bg-white p-6 text-slate-900 shadow-xl ring-1 ring-slate-900/5 sm:p-8">
      <label htmlFor={inputId} className="block text-base font-semibold text-slate-900">
        {t('landing.pricing.calculatorLabel')}
      </label>
      <p id={hintId} className="mt-1 text-sm text-slate-500">
        {t('landing.pricing.calculatorHint')}
      </p>
      <div className="relative mt-4">
        <input
          id={inputId}
          // Text, not a number input: Chromium's number input refuses "1.000" and turns "1,5" into 15; the
          // shared parser reads pt-BR thousands and refuses fractions with a message.
          type="text"
          inputMode="numeric"
          autoComplete="off"
          value={amount}
          placeholder="0"
          onChange={(event) => setAmount(event.target.value)}
          aria-invalid={invalid || undefined}
          aria-describedby={invalid ? `${hintId} ${errorId}` : hintId}
          className="block h-14 w-full rounded-xl border border-slate-300 bg-white px-4 pr-24 text-2xl font-semibold tabular-nums shadow-sm focus:border-brand-600 focus:outline-none focus:ring-4 focus:ring-brand-100 aria-invalid:border-red-500"
          data-testid="calculator-input"
        />
        <span className="pointer-events-none absolute inset-y-0 right-4 flex items-center text-sm text-slate-500">
          {t('landing.pricing.unit')}
        </span>
      </div>
      <FieldError id={errorId}>{invalid ? t('landing.pricing.invalid') : null}</FieldError>
      <div className="mt-6 flex flex-wrap items-baseline justify-between gap-2 rounded-xl bg-brand-50 px-4 py-4">
        <span className="text-sm font-medium text-brand-900">{t('landing.pricing.costLabel')}</span>
        <output
          htmlFor={inputId}
          aria-live="polite"
          className="text-3xl font-extrabold tracking-tight text-brand-800 tabular-nums"
          data-testid="calculator-cost"
        >
          {invalid ? '—' : formatBRLCurrency(cost)}
        </output>
        {!invalid && hasFractionOfCent(cost) ? (
          <p className="w-full text-xs text-brand-900/80" data-testid="calculator-exact">
            {t('landing.pricing.exact', { amount: formatBRL(cost) })}
          </p>
        ) : null}
      </div>
    </div>
  );
}
