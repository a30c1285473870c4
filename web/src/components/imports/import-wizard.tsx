import { FIELD_TYPE_VALUES, type FieldType, fieldHeader, importStartSchema, listCreateSchema } from '@carteiro/shared';
import { useState } from 'react';
import { formatNumber, pluralForm, Select } from '@/components/kit';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { FieldError, Label } from '@/components/ui/label';
import { errorText } from '@/lib/error-text';
import { type MailingList, useCreateList, useLists } from '@/lib/queries/lists';
import '@/lib/i18n/app-messages';
import { ImportProgressPanel } from '@/components/imports/import-progress';
import { issueText, submitParsed } from '@/lib/form-fields';
import { type MessageKey, useI18n } from '@/lib/i18n';
import { type ImportUpload, startImport, uploadImport } from '@/lib/queries/imports';
import { trackImport, useImportTracker } from '@/stores/import-tracker';

const DELIMITER_LABELS: Record<string, MessageKey> = {
  ',': 'imports.delimiter.comma',
  ';': 'imports.delimiter.semicolon',
  '\t': 'imports.delimiter.tab',
};
// Encoding names are technical and the same in every language.
const ENCODING_LABELS: Record<string, string> = {
  'utf-8': 'UTF-8',
  utf8: 'UTF-8',
  'windows-1252': 'Windows-1252 (Excel)',
};

/** Upload → mapping (preview, detected delimiter/encoding, columns, list, legal basis) → progress → summary. */
export function ImportWizard({ defaultListId, onClose }: { defaultListId?: string; onClose?: () => void }) {
  const { t } = useI18n();
  const [upload, setUpload] = useState<ImportUpload | null>(null);
  const [uploading, setUploading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const tracker = useImportTracker();
  const [started, setStarted] = useState(false);

  if (started && tracker.importId) return <ImportProgressPanel />;

  async function send(file: File) {
    setUploading(true);
    setError(null);
    try {
      setUpload(await uploadImport(file));
    } catch (failure) {
      setError(errorText(failure));
    } finally {
      setUploading(false);
    }
  }

  if (!upload) {
    return (
      <div className="space-y-4">
        <p className="text-sm text-slate-600">{t('imports.upload.intro')}</p>
        <label
          htmlFor="import-file"
          onDragOver={(event) => event.preventDefault()}
          onDrop={(event) => {
            event.preventDefault();
            const file = event.dataTransfer.files[0];
            if (file && !uploading) void send(file);
          }}
          className="flex cursor-pointer flex-col items-center justify-center rounded-2xl border-2 border-dashed border-slate-300 bg-slate-50 px-6 py-10 text-center hover:border-brand-400"
        >
          <span className="font-semibold text-brand-800">
            {uploading ? t('imports.upload.uploading') : t('imports.upload.choose')}
          </span>
          <span className="mt-1 text-sm text-slate-500">{t('imports.upload.drop')}</span>
          <input
            id="import-file"
            type="file"
            accept=".csv,text/csv,text/plain"
            className="sr-only"
            disabled={uploading}
            onChange={(event) => {
              const file = event.target.files?.[0];
              if (file) void send(file);
            }}
          />
        </label>
        <FieldError>{error}</FieldError>
      </div>
    );
  }
  return (
    <MappingStep
      upload={upload}
      defaultListId={defaultListId}
      onBack={() => setUpload(null)}
      onCancel={onClose}
      onStarted={() => setStarted(true)}
    />
  );
}

function MappingStep({
  upload,
  defaultListId,
  onBack,
  onCancel,
  onStarted,
}: {
  upload: ImportUpload;
  defaultListId?: string;
  onBack: () => void;
  onCancel?: () => void;
  onStarted: () => void;
}) {
  const { t, locale } = useI18n();
  const lists = useLists();
  const [mapping, setMapping] = useState<Record<string, string>>(() =>
    Object.fromEntries(upload.columns.map((c) => [c, upload.suggestedMapping[c] ?? `field:${c}`])),
  );
  const [fieldTypes, setFieldTypes] = useState<Record<string, FieldType>>(() => ({ ...upload.suggestedTypes }));
  const isField = (column: string) => mapping[column]?.startsWith('field:') ?? false;
  const [listId, setListId] = useState(defaultListId ?? '');
  const [creatingList, setCreatingList] = useState(false);
  const [createdList, setCreatedList] = useState<string | null>(null);
  const [legalBasis, setLegalBasis] = useState<'consent' | 'legitimate_interest' | ''>('');
  const [consentSource, setConsentSource] = useState('');
  const [updateExisting, setUpdateExisting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // A field's own error shows under that field (the LGPD basis and source sit far above the start button).
  const [fieldErrors, setFieldErrors] = useState<{ legalBasis?: string; consentSource?: string }>({});
  const [pending, setPending] = useState(false);
  const hasEmail = Object.values(mapping).includes('email');
  const delimiterLabel = DELIMITER_LABELS[upload.delimiter];

  return (
    <form
      noValidate
      className="space-y-6"
      onSubmit={async (event) => {
        event.preventDefault();
        if (!hasEmail) {
          setError(t('imports.mapping.needEmail'));
          return;
        }
        const parsed = importStartSchema.safeParse({
          mapping,
          // Only the columns that still go to a custom field keep a type (text is the default).
          fieldTypes: Object.fromEntries(
            Object.entries(fieldTypes).filter(([column, type]) => type !== 'text' && isField(column)),
          ),
          listId: listId || null,
          legalBasis: legalBasis || undefined,
          consentSource,
          updateExisting,
        });
        if (!parsed.success) {
          const byField: { legalBasis?: string; consentSource?: string } = {};
          for (const issue of parsed.error.issues) {
            const field = issue.path[0];
            if ((field === 'legalBasis' || field === 'consentSource') && !byField[field])
              byField[field] = issueText(issue);
          }
          setFieldErrors(byField);
          const other = parsed.error.issues.find((i) => i.path[0] !== 'legalBasis' && i.path[0] !== 'consentSource');
          setError(other ? issueText(other) : Object.keys(byField).length ? null : t('imports.mapping.checkFields'));
          const first = byField.legalBasis ? 'import-basis' : byField.consentSource ? 'import-source' : null;
          if (first) document.getElementById(first)?.focus();
          return;
        }
        setFieldErrors({});
        setPending(true);
        setError(null);
        try {
          const progress = await startImport(upload.importId, parsed.data);
          trackImport(upload.importId, progress);
          onStarted();
        } catch (failure) {
          setError(errorText(failure));
        } finally {
          setPending(false);
        }
      }}
    >
      <div className="flex flex-wrap gap-2 text-sm" data-testid="import-detected">
        <span className="rounded-full bg-slate-100 px-3 py-1">
          {t(`imports.detected.rows.${pluralForm(locale, upload.totalRows)}`, {
            count: formatNumber(upload.totalRows),
          })}
        </span>
        <span className="rounded-full bg-slate-100 px-3 py-1">
          {t('imports.detected.delimiter', { delimiter: delimiterLabel ? t(delimiterLabel) : upload.delimiter })}
        </span>
        <span className="rounded-full bg-slate-100 px-3 py-1">
          {t(upload.hasBom ? 'imports.detected.encodingBom' : 'imports.detected.encoding', {
            encoding: ENCODING_LABELS[upload.encoding.toLowerCase()] ?? upload.encoding,
          })}
        </span>
      </div>

      <section>
        <h3 className="mb-2 font-semibold text-slate-900">{t('imports.mapping.columns')}</h3>
        <p className="mb-3 text-sm text-slate-600">{t('imports.mapping.columnsHint')}</p>
        {/* One row per column (not one table column each): the choices keep their full width at any file size. */}
        <ul className="divide-y divide-slate-100 rounded-xl border border-slate-200" data-testid="import-columns">
          {upload.columns.map((column, c) => {
            const suggested = upload.suggestedMapping[column];
            const fieldValue = suggested?.startsWith('field:') ? suggested : `field:${column}`;
            const examples = upload.preview
              .map((row) => row[c] ?? '')
              .filter((cell) => cell.trim() !== '')
              .slice(0, 3);
            return (
              <li
                key={column}
                className="grid gap-2 px-3 py-3 sm:grid-cols-[minmax(0,13rem)_minmax(0,1fr)_8.5rem] sm:items-center"
              >
                <div className="min-w-0">
                  <span className="block break-words font-semibold text-slate-800">{column}</span>
                  <span className="flex min-w-0 flex-wrap gap-x-3 text-xs text-slate-500">
                    {examples.map((cell, e) => (
                      // biome-ignore lint/suspicious/noArrayIndexKey: preview cells are static.
                      <span key={e} className="max-w-full truncate">
                        {cell}
                      </span>
                    ))}
                  </span>
                </div>
                <Select
                  aria-label={t('imports.mapping.column', { column })}
                  className="h-9"
                  value={mapping[column]}
                  onChange={(event) => setMapping({ ...mapping, [column]: event.target.value })}
                >
                  <option value="email">{t('imports.mapping.email')}</option>
                  <option value="name">{t('imports.mapping.name')}</option>
                  <option value={fieldValue}>
                    {t('imports.mapping.customField', { field: fieldHeader(fieldValue.slice(6)) })}
                  </option>
                  <option value="ignore">{t('imports.mapping.ignore')}</option>
                </Select>
                {mapping[column]?.startsWith('field:') ? (
                  <Select
                    aria-label={t('imports.mapping.columnType', { column })}
                    className="h-9"
                    value={fieldTypes[column] ?? 'text'}
                    onChange={(event) => setFieldTypes({ ...fieldTypes, [column]: event.target.value as FieldType })}
                  >
                    {FIELD_TYPE_VALUES.map((type) => (
                      <option key={type} value={type}>
                        {t(`imports.mapping.type.${type}`)}
                      </option>
                    ))}
                  </Select>
                ) : (
                  <span aria-hidden="true" className="hidden sm:block" />
                )}
              </li>
            );
          })}
        </ul>
        {Object.entries(fieldTypes).some(([column, type]) => type !== 'text' && isField(column)) ? (
          <p className="mt-2 text-sm text-slate-600">{t('imports.mapping.typeHint')}</p>
        ) : null}
      </section>

      <section className="grid gap-4 sm:grid-cols-2">
        <div>
          <Label htmlFor="import-list">{t('imports.mapping.list')}</Label>
          <Select
            id="import-list"
            className="mt-1.5"
            value={listId}
            onChange={(e) => {
              setListId(e.target.value);
              setCreatedList(null); // the "created and chosen" note is about the list no longer chosen
            }}
          >
            <option value="">{t('imports.mapping.noList')}</option>
            {(lists.data ?? []).map((list) => (
              <option key={list.id} value={list.id}>
                {list.name}
              </option>
            ))}
          </Select>
          {creatingList ? (
            <NewListInline
              onCreated={(list) => {
                setListId(list.id);
                setCreatingList(false);
                setCreatedList(list.name);
                document.getElementById('import-list')?.focus();
              }}
              onCancel={() => setCreatingList(false)}
            />
          ) : (
            <button
              type="button"
              className="mt-1.5 text-sm font-semibold text-brand-700 hover:underline"
              onClick={() => {
                setCreatedList(null);
                setCreatingList(true);
              }}
            >
              {t('imports.newList.open')}
            </button>
          )}
          {createdList ? (
            <p role="status" className="mt-1 text-sm text-emerald-800">
              {t('imports.newList.created', { name: createdList })}
            </p>
          ) : null}
          {lists.data?.find((list) => list.id === listId)?.optIn === 'double' ? (
            <p role="status" className="mt-2 rounded-md bg-amber-50 p-2 text-sm text-amber-900">
              {t(`imports.mapping.doubleOptIn.${pluralForm(locale, upload.totalRows)}`, {
                count: formatNumber(upload.totalRows),
              })}
            </p>
          ) : null}
        </div>
        <div>
          <Label htmlFor="import-basis">{t('imports.mapping.legalBasis')}</Label>
          <Select
            id="import-basis"
            className="mt-1.5"
            value={legalBasis}
            aria-invalid={fieldErrors.legalBasis ? true : undefined}
            aria-describedby={fieldErrors.legalBasis ? 'import-basis-error' : undefined}
            onChange={(e) => setLegalBasis(e.target.value as typeof legalBasis)}
          >
            <option value="">{t('imports.mapping.choose')}</option>
            <option value="consent">{t('imports.mapping.consent')}</option>
            <option value="legitimate_interest">{t('imports.mapping.legitimateInterest')}</option>
          </Select>
          {fieldErrors.legalBasis ? <FieldError id="import-basis-error">{fieldErrors.legalBasis}</FieldError> : null}
        </div>
        <div className="sm:col-span-2">
          <Label htmlFor="import-source">{t('imports.mapping.consentSource')}</Label>
          <Input
            id="import-source"
            className="mt-1.5"
            placeholder={t('imports.mapping.consentSourcePlaceholder')}
            value={consentSource}
            aria-invalid={fieldErrors.consentSource ? true : undefined}
            aria-describedby={fieldErrors.consentSource ? 'import-source-error' : undefined}
            onChange={(e) => setConsentSource(e.target.value)}
          />
          {fieldErrors.consentSource ? (
            <FieldError id="import-source-error">{fieldErrors.consentSource}</FieldError>
          ) : null}
        </div>
        <label className="flex items-start gap-2 text-sm text-slate-700 sm:col-span-2">
          <input
            type="checkbox"
            checked={updateExisting}
            onChange={(e) => setUpdateExisting(e.target.checked)}
            className="mt-0.5 accent-brand-700"
          />
          <span>
            <span className="font-medium">{t('imports.mapping.updateExisting')}</span>
            <span className="block text-slate-500">{t('imports.mapping.updateExistingHint')}</span>
          </span>
        </label>
      </section>

      <FieldError>{error}</FieldError>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={pending}>
          {pending ? t('imports.mapping.starting') : t('imports.mapping.start')}
        </Button>
        <Button variant="outline" onClick={onBack}>
          {t('imports.mapping.changeFile')}
        </Button>
        {onCancel ? (
          <Button variant="ghost" onClick={onCancel}>
            {t('common.cancel')}
          </Button>
        ) : null}
      </div>
    </form>
  );
}

/**
 * Creates the import's target list without leaving the import (a div, not a nested form: Enter creates the list
 * instead of starting the import). The new list is chosen as soon as it exists.
 */
function NewListInline({ onCreated, onCancel }: { onCreated: (list: MailingList) => void; onCancel: () => void }) {
  const { t } = useI18n();
  const create = useCreateList();
  const [name, setName] = useState('');
  const [double, setDouble] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function submit() {
    const saved = await submitParsed(
      listCreateSchema,
      { name, optIn: double ? 'double' : 'single' },
      setError,
      async (list) => onCreated(await create.mutateAsync(list)),
      t('imports.mapping.checkFields'),
    );
    // Back to the name, whose error line now says why (a refusal or a failed save).
    if (!saved) document.getElementById('import-new-list')?.focus();
  }

  return (
    <fieldset className="mt-2 space-y-2 rounded-lg border border-slate-200 p-3" data-testid="import-new-list">
      <legend className="px-1 text-sm font-semibold text-slate-800">{t('imports.newList.title')}</legend>
      <Label htmlFor="import-new-list">{t('imports.newList.name')}</Label>
      <Input
        id="import-new-list"
        autoFocus
        value={name}
        maxLength={200}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? 'import-new-list-error' : undefined}
        onChange={(event) => setName(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter') {
            event.preventDefault();
            void submit();
          }
        }}
      />
      {error ? <FieldError id="import-new-list-error">{error}</FieldError> : null}
      <label className="flex items-start gap-2 text-sm text-slate-700">
        <input
          type="checkbox"
          checked={double}
          onChange={(event) => setDouble(event.target.checked)}
          className="mt-0.5 accent-brand-700"
        />
        <span>
          <span className="font-medium">{t('lists.optIn.double')}</span>
          <span className="block text-slate-500">{t('imports.newList.doubleHint')}</span>
        </span>
      </label>
      <div className="flex flex-wrap gap-2">
        <Button type="button" size="sm" disabled={create.isPending} onClick={() => void submit()}>
          {create.isPending ? t('imports.newList.creating') : t('lists.create')}
        </Button>
        <Button type="button" size="sm" variant="ghost" onClick={onCancel}>
          {t('common.cancel')}
        </Button>
      </div>
    </fieldset>
  );
}
