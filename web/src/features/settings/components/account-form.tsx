import {
  accountUpdateSchema,
  BRAZIL_TIME_ZONES,
  DEFAULT_TIME_ZONE,
  formatTaxId,
  OTHER_TIME_ZONES,
  timeZoneLabel,
} from '@carteiro/shared';
import { type FormEvent, useId, useMemo, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { FieldError, Label } from '@/components/ui/label';
import { Spinner } from '@/components/ui/spinner';
import { isApiError } from '@/lib/api-client';
import { issueText } from '@/lib/form-fields';
import { useI18n } from '@/lib/i18n';
import { toastError, toastSuccess } from '@/lib/notify';
import { queryClient } from '@/lib/query-client';
import { SESSION_QUERY_KEY, type Session } from '@/lib/session';
import { canManage, useSessionData } from '@/lib/use-session';
import { useAppStore } from '@/stores/app-store';
import { updateAccount } from '../api/account';

const FIELDS = ['name', 'legalName', 'taxId', 'address', 'timeZone', 'defaultFromName', 'defaultFromEmail'] as const;
type Field = (typeof FIELDS)[number];

/** The picker's "Outros países" group: the short pt-BR list, plus the account's own zone when it is elsewhere. */
function otherZones(current: string): string[] {
  const known = [...BRAZIL_TIME_ZONES, ...OTHER_TIME_ZONES];
  return current && !known.includes(current) ? [current, ...OTHER_TIME_ZONES] : OTHER_TIME_ZONES;
}

/** Conta: name, legal name, CNPJ/CPF (check digits), address, time zone, default sender; merged by PATCH. */
export function AccountForm() {
  const { t } = useI18n();
  const session = useSessionData();
  const store = useAppStore();
  const account = session.account as Record<string, unknown> | null;
  const editable = canManage(session);
  const initial = useMemo(() => {
    const values = {} as Record<Field, string>;
    for (const field of FIELDS) {
      const value = account?.[field];
      values[field] = typeof value === 'string' ? (field === 'taxId' ? formatTaxId(value) : value) : '';
    }
    if (!values.timeZone) values.timeZone = DEFAULT_TIME_ZONE;
    return values;
  }, [account]);
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [pending, setPending] = useState(false);
  const baseId = useId();

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const parsed = accountUpdateSchema.safeParse(values);
    if (!parsed.success) {
      const next: Partial<Record<Field, string>> = {};
      for (const issue of parsed.error.issues) next[issue.path[0] as Field] ??= issueText(issue);
      return setErrors(next);
    }
    setErrors({});
    setPending(true);
    try {
      const updated = await updateAccount(values);
      queryClient.setQueryData<Session>(SESSION_QUERY_KEY, (old) =>
        old
          ? {
              ...old,
              account: { ...old.account, ...updated },
              accounts: old.accounts.map((a) => (a.id === updated.id ? { ...a, name: updated.name } : a)),
            }
          : old,
      );
      store.dispatch({ type: 'SET_ACCOUNT', account: { ...updated } });
      setValues((v) => ({ ...v, taxId: updated.taxId ? formatTaxId(updated.taxId) : '' }));
      toastSuccess(t('settings.account.saved'));
    } catch (error) {
      const fields = isApiError(error)
        ? (error.details as { fields?: Array<{ path: string; message: string }> })?.fields
        : null;
      if (fields?.length) {
        setErrors(Object.fromEntries(fields.map((f) => [f.path, f.message])));
      }
      toastError(t('settings.account.saveFailed'), error);
    } finally {
      setPending(false);
    }
  }

  const field = (name: Field, label: string, props: { type?: string; hint?: string; placeholder?: string } = {}) => {
    const id = `${baseId}-${name}`;
    return (
      <div>
        <Label htmlFor={id}>{label}</Label>
        <Input
          id={id}
          name={name}
          type={props.type ?? 'text'}
          value={values[name]}
          placeholder={props.placeholder}
          disabled={!editable}
          onChange={(e) => setValues((v) => ({ ...v, [name]: e.target.value }))}
          aria-invalid={errors[name] ? true : undefined}
          className="mt-1.5"
        />
        {props.hint && !errors[name] ? <p className="mt-1.5 text-xs text-slate-500">{props.hint}</p> : null}
        <FieldError>{errors[name] ?? null}</FieldError>
      </div>
    );
  };

  return (
    <form noValidate onSubmit={(e) => void onSubmit(e)} className="space-y-8">
      {!editable ? (
        <p className="rounded-lg border border-slate-200 bg-slate-50 px-4 py-3 text-sm text-slate-700">
          {t('settings.readOnly')}
        </p>
      ) : null}
      <fieldset className="grid gap-5 sm:grid-cols-2">
        <legend className="mb-4 text-base font-semibold text-slate-900">{t('settings.account.identity')}</legend>
        {field('name', t('settings.account.name'))}
        {field('legalName', t('settings.account.legalName'))}
        {field('taxId', t('settings.account.taxId'), {
          hint: t('settings.account.taxIdHint'),
          placeholder: '00.000.000/0000-00',
        })}
        <div>
          <Label htmlFor={`${baseId}-timeZone`}>{t('settings.account.timeZone')}</Label>
          <select
            id={`${baseId}-timeZone`}
            value={values.timeZone}
            disabled={!editable}
            onChange={(e) => setValues((v) => ({ ...v, timeZone: e.target.value }))}
            className="mt-1.5 h-11 w-full rounded-lg border border-slate-300 bg-white px-3 text-base text-slate-900 shadow-sm focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-200 disabled:bg-slate-50"
          >
            <optgroup label={t('settings.account.timeZoneBrazil')}>
              {BRAZIL_TIME_ZONES.map((zone) => (
                <option key={zone} value={zone}>
                  {timeZoneLabel(zone)}
                </option>
              ))}
            </optgroup>
            <optgroup label={t('settings.account.timeZoneOthers')}>
              {otherZones(initial.timeZone).map((zone) => (
                <option key={zone} value={zone}>
                  {timeZoneLabel(zone)}
                </option>
              ))}
            </optgroup>
          </select>
          <FieldError>{errors.timeZone ?? null}</FieldError>
        </div>
        <div className="sm:col-span-2">
          <Label htmlFor={`${baseId}-address`}>{t('settings.account.address')}</Label>
          <textarea
            id={`${baseId}-address`}
            rows={3}
            value={values.address}
            disabled={!editable}
            onChange={(e) => setValues((v) => ({ ...v, address: e.target.value }))}
            className="mt-1.5 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-base text-slate-900 shadow-sm focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-200 disabled:bg-slate-50"
          />
          <p className="mt-1.5 text-xs text-slate-500">{t('settings.account.addressHint')}</p>
          <FieldError>{errors.address ?? null}</FieldError>
        </div>
      </fieldset>
      <fieldset className="grid gap-5 sm:grid-cols-2">
        <legend className="mb-4 text-base font-semibold text-slate-900">{t('settings.account.sender')}</legend>
        {field('defaultFromName', t('settings.account.fromName'))}
        {field('defaultFromEmail', t('settings.account.fromEmail'), { type: 'email' })}
      </fieldset>
      {editable ? (
        <Button type="submit" disabled={pending}>
          {pending ? <Spinner className="text-white" /> : null}
          {t('settings.save')}
        </Button>
      ) : null}
    </form>
  );
}
