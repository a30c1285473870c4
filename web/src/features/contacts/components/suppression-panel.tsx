import type { SuppressionReason } from '@carteiro/shared';
import { useState } from 'react';
import { formatDateTime, formatNumber, pluralForm, Textarea } from '@/components/kit';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { FieldError, Label } from '@/components/ui/label';
import { errorText } from '@/lib/error-text';
import { type MessageKey, useI18n } from '@/lib/i18n';
import { confirmAction, toast } from '@/stores/app-store';
import {
  type AddSuppressionsResult,
  lookupSuppression,
  type SuppressionLookup,
  useAddSuppressions,
  useRemoveSuppression,
  useSuppressionSummary,
} from '../api/suppressions';

const REASONS: ReadonlyArray<readonly [SuppressionReason, MessageKey]> = [
  ['unsubscribed', 'contacts.suppression.reason.unsubscribed'],
  ['bounced', 'contacts.suppression.reason.bounced'],
  ['complained', 'contacts.suppression.reason.complained'],
  ['erased', 'contacts.suppression.reason.erased'],
  ['manual', 'contacts.suppression.reason.manual'],
];

/** Splits what the sender pasted: one address per line, or separated by `,` / `;` / spaces. */
export function splitAddresses(text: string): string[] {
  return text
    .split(/[\s,;]+/)
    .map((part) => part.trim())
    .filter(Boolean);
}

/**
 * The account's suppression list: addresses never mailed (unsubscribes, bounces, complaints, LGPD erasures and the
 * ones the sender adds here). It keeps hashes only, so it is consulted address by address rather than listed.
 */
export function SuppressionPanel() {
  const { t, locale } = useI18n();
  const summary = useSuppressionSummary();
  const add = useAddSuppressions();
  const remove = useRemoveSuppression();
  const [text, setText] = useState('');
  const [addError, setAddError] = useState<string | null>(null);
  const [added, setAdded] = useState<AddSuppressionsResult | null>(null);
  const [email, setEmail] = useState('');
  const [lookup, setLookup] = useState<SuppressionLookup | null>(null);
  const [lookupError, setLookupError] = useState<string | null>(null);
  const [looking, setLooking] = useState(false);

  async function check(address: string) {
    setLooking(true);
    setLookupError(null);
    try {
      setLookup(await lookupSuppression(address));
    } catch (error) {
      setLookup(null);
      setLookupError(errorText(error));
    } finally {
      setLooking(false);
    }
  }

  return (
    <div className="space-y-8">
      <p className="text-sm text-slate-600">{t('contacts.suppression.intro')}</p>

      <section aria-labelledby="suppression-counts">
        <h3 id="suppression-counts" className="mb-2 font-semibold text-slate-900">
          {summary.data
            ? t(`contacts.suppression.total.${pluralForm(locale, summary.data.total)}`, {
                count: formatNumber(summary.data.total),
              })
            : t('common.loading')}
        </h3>
        {summary.isError ? <FieldError>{errorText(summary.error)}</FieldError> : null}
        {summary.data ? (
          <dl className="grid grid-cols-2 gap-x-4 gap-y-1 text-sm" data-testid="suppression-counts">
            {REASONS.map(([reason, label]) => (
              <div key={reason} className="contents">
                <dt className="text-slate-600">{t(label)}</dt>
                <dd className="text-right tabular-nums text-slate-900">
                  {formatNumber(summary.data.byReason[reason])}
                </dd>
              </div>
            ))}
          </dl>
        ) : null}
      </section>

      <form
        noValidate
        className="space-y-3"
        onSubmit={async (event) => {
          event.preventDefault();
          const emails = splitAddresses(text);
          if (emails.length === 0) {
            setAddError(t('contacts.suppression.addEmpty'));
            return;
          }
          setAddError(null);
          try {
            const result = await add.mutateAsync(emails);
            setAdded(result);
            setText(result.invalid.join('\n'));
            toast({
              title: t(`contacts.suppression.added.${pluralForm(locale, result.added)}`, { count: result.added }),
              variant: 'success',
            });
          } catch (error) {
            setAddError(errorText(error));
          }
        }}
      >
        <Label htmlFor="suppression-add">{t('contacts.suppression.addLabel')}</Label>
        <Textarea
          id="suppression-add"
          rows={4}
          value={text}
          placeholder={t('contacts.suppression.placeholder')}
          aria-invalid={Boolean(addError) || undefined}
          onChange={(event) => setText(event.target.value)}
        />
        <FieldError>{addError}</FieldError>
        {added ? (
          <p role="status" className="text-sm text-slate-700">
            {t('contacts.suppression.addResult', {
              added: added.added,
              already: added.alreadySuppressed,
              invalid: added.invalidCount,
            })}
          </p>
        ) : null}
        <Button type="submit" disabled={add.isPending}>
          {add.isPending ? t('contacts.form.saving') : t('contacts.suppression.addSubmit')}
        </Button>
      </form>

      <form
        noValidate
        className="space-y-3"
        onSubmit={(event) => {
          event.preventDefault();
          if (!email.trim()) {
            setLookupError(t('contacts.suppression.lookupEmpty'));
            return;
          }
          void check(email);
        }}
      >
        <Label htmlFor="suppression-lookup">{t('contacts.suppression.lookupLabel')}</Label>
        <div className="flex gap-2">
          <Input
            id="suppression-lookup"
            type="email"
            value={email}
            aria-invalid={Boolean(lookupError) || undefined}
            onChange={(event) => {
              setEmail(event.target.value);
              setLookup(null);
            }}
          />
          <Button type="submit" variant="outline" disabled={looking}>
            {t('contacts.suppression.lookupSubmit')}
          </Button>
        </div>
        <FieldError>{lookupError}</FieldError>
        {lookup ? (
          <div role="status" className="rounded-lg border border-slate-200 bg-slate-50 p-3 text-sm text-slate-700">
            {lookup.suppressed && lookup.reason ? (
              <>
                <p>
                  {t('contacts.suppression.isSuppressed', {
                    email: lookup.email,
                    reason: t(REASONS.find(([r]) => r === lookup.reason)?.[1] ?? 'contacts.suppression.reason.manual'),
                    date: formatDateTime(lookup.createdAt),
                  })}
                </p>
                {lookup.reason === 'manual' ? (
                  <Button
                    className="mt-2"
                    size="sm"
                    variant="outline"
                    onClick={() =>
                      confirmAction({
                        title: t('contacts.suppression.removeTitle'),
                        description: t('contacts.suppression.removeBody', { email: lookup.email }),
                        action: async () => {
                          try {
                            await remove.mutateAsync(lookup.email);
                            toast({ title: t('contacts.suppression.removed'), variant: 'success' });
                            await check(lookup.email);
                          } catch (error) {
                            toast({ title: errorText(error), variant: 'error' });
                          }
                        },
                      })
                    }
                  >
                    {t('contacts.suppression.remove')}
                  </Button>
                ) : (
                  <p className="mt-1 text-slate-500">{t('contacts.suppression.recipientCaused')}</p>
                )}
              </>
            ) : (
              <p>{t('contacts.suppression.notSuppressed', { email: lookup.email })}</p>
            )}
          </div>
        ) : null}
      </form>
    </div>
  );
}
