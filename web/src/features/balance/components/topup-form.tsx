import { formatBRL, parseReaisToMillis } from '@carteiro/shared';
import { type FormEvent, useId, useState } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { FieldError, Label } from '@/components/ui/label';
import { Spinner } from '@/components/ui/spinner';
import { errorText } from '@/lib/error-text';
import { useI18n } from '@/lib/i18n';
import { usePublicConfig } from '@/lib/public-config';
import { createTopup } from '../api/topups';

const PRESETS_MILLIS = [50_000, 100_000, 250_000, 500_000];

/** "Adicionar créditos": the amount (minimum from the server), then the Pix page of the new top-up. */
export function TopupForm({ priceMillis, onCancel }: { priceMillis: number; onCancel: () => void }) {
  const { t } = useI18n();
  const navigate = useNavigate();
  const { topupMinMillis } = usePublicConfig();
  const id = useId();
  const [amount, setAmount] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const millis = parseReaisToMillis(amount);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (millis === null || millis % 10 !== 0) return setError(t('balance.topup.invalidAmount'));
    if (millis < topupMinMillis) return setError(t('balance.topup.min', { min: formatBRL(topupMinMillis) }));
    setError(null);
    setPending(true);
    try {
      const topup = await createTopup(millis);
      navigate(`/dashboard/my-balance/topups/${topup.id}`);
    } catch (caught) {
      setError(errorText(caught));
    } finally {
      setPending(false);
    }
  }

  return (
    <form noValidate onSubmit={(e) => void onSubmit(e)} className="space-y-4">
      <div>
        <Label htmlFor={id}>{t('balance.topup.amount')}</Label>
        <div className="relative mt-1.5 max-w-xs">
          <span className="pointer-events-none absolute inset-y-0 left-3 flex items-center text-slate-500">R$</span>
          <Input
            id={id}
            name="amount"
            inputMode="decimal"
            placeholder="100,00"
            value={amount}
            onChange={(e) => setAmount(e.target.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby={`${id}-hint`}
            className="pl-10"
          />
        </div>
        <p id={`${id}-hint`} className="mt-1.5 text-xs text-slate-500">
          {t('balance.topup.min', { min: formatBRL(topupMinMillis) })}
          {millis !== null && millis > 0
            ? ` · ${t('balance.topup.pays', { count: Math.floor(millis / Math.max(priceMillis, 1)).toLocaleString('pt-BR') })}`
            : ''}
        </p>
        <FieldError>{error}</FieldError>
      </div>
      <div className="flex flex-wrap gap-2">
        {PRESETS_MILLIS.map((preset) => (
          <button
            key={preset}
            type="button"
            onClick={() => setAmount(formatBRL(preset).replace(/^R\$\s/, ''))}
            className="rounded-full border border-slate-300 bg-white px-3 py-1 text-sm font-medium text-slate-700 hover:border-brand-400 hover:text-brand-800"
          >
            {formatBRL(preset)}
          </button>
        ))}
      </div>
      <div className="flex flex-wrap gap-3">
        <Button type="submit" disabled={pending}>
          {pending ? <Spinner className="text-white" /> : null}
          {t('balance.topup.generate')}
        </Button>
        <Button type="button" variant="ghost" onClick={onCancel}>
          {t('common.cancel')}
        </Button>
      </div>
    </form>
  );
}
