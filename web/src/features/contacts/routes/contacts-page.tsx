import { contactCreateSchema } from '@carteiro/shared';
import { useEffect, useState } from 'react';
import { PageHeader } from '@/components/coming-soon-page';
import { ImportProgressPanel } from '@/components/imports/import-progress';
import { ImportWizard } from '@/components/imports/import-wizard';
import { Drawer, Select } from '@/components/kit';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { FieldError, Label } from '@/components/ui/label';
import { submitParsed } from '@/lib/form-fields';
import { useI18n } from '@/lib/i18n';
import { LEGAL_BASIS_LABELS } from '@/lib/queries/contacts';
import { useLists } from '@/lib/queries/lists';
import { usePageTitle } from '@/lib/use-page-title';
import { toast } from '@/stores/app-store';
import { resumeImport } from '@/stores/import-tracker';
import { useCreateContact } from '../api/create-contact';
import { ContactsBrowser } from '../components/contacts-browser';
import { CustomFieldsEditor } from '../components/custom-fields-editor';
import { SuppressionPanel } from '../components/suppression-panel';

export function ContactsPage() {
  const { t } = useI18n();
  const [adding, setAdding] = useState(false);
  const [importing, setImporting] = useState(false);
  const [suppressionOpen, setSuppressionOpen] = useState(false);
  usePageTitle(t('contacts.title'));
  useEffect(() => resumeImport(), []);
  return (
    <div>
      <PageHeader title={t('contacts.title')}>
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" onClick={() => setSuppressionOpen(true)}>
            {t('contacts.suppression.open')}
          </Button>
          <Button variant="secondary" onClick={() => setImporting(true)}>
            {t('contacts.importCsv')}
          </Button>
        </div>
      </PageHeader>
      {importing ? null : <ImportProgressPanel />}
      <ContactsBrowser onAdd={() => setAdding(true)} />
      <Drawer open={adding} title={t('contacts.new')} onClose={() => setAdding(false)}>
        <NewContactForm onDone={() => setAdding(false)} />
      </Drawer>
      <Drawer open={suppressionOpen} title={t('contacts.suppression.title')} onClose={() => setSuppressionOpen(false)}>
        <SuppressionPanel />
      </Drawer>
      <Drawer open={importing} title={t('contacts.importTitle')} wide onClose={() => setImporting(false)}>
        <ImportWizard onClose={() => setImporting(false)} />
      </Drawer>
    </div>
  );
}

export function NewContactForm({ onDone }: { onDone: () => void }) {
  const { t } = useI18n();
  const create = useCreateContact();
  const lists = useLists();
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [listId, setListId] = useState('');
  const [legalBasis, setLegalBasis] = useState<'consent' | 'legitimate_interest'>('consent');
  const [consentSource, setConsentSource] = useState(() => t('contacts.form.defaultSource'));
  const [fields, setFields] = useState<Array<{ k: string; v: string }>>([]);
  const [error, setError] = useState<string | null>(null);
  return (
    <form
      noValidate
      className="space-y-4"
      onSubmit={async (event) => {
        event.preventDefault();
        const input = {
          email,
          name: name || null,
          listIds: listId ? [listId] : undefined,
          legalBasis,
          consentSource,
          fields: Object.fromEntries(fields.filter((f) => f.k.trim()).map((f) => [f.k.trim(), f.v])),
        };
        await submitParsed(
          contactCreateSchema,
          input,
          setError,
          async (contact) => {
            await create.mutateAsync(contact);
            toast({ title: t('contacts.form.added'), variant: 'success' });
            onDone();
          },
          t('contacts.form.checkFields'),
        );
      }}
    >
      <div>
        <Label htmlFor="new-email">{t('contacts.form.email')}</Label>
        <Input
          id="new-email"
          type="email"
          className="mt-1.5"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
      </div>
      <div>
        <Label htmlFor="new-name">{t('contacts.form.name')}</Label>
        <Input id="new-name" className="mt-1.5" value={name} onChange={(e) => setName(e.target.value)} />
      </div>
      <div>
        <Label htmlFor="new-list">{t('contacts.form.list')}</Label>
        <Select id="new-list" className="mt-1.5" value={listId} onChange={(e) => setListId(e.target.value)}>
          <option value="">{t('contacts.form.noList')}</option>
          {(lists.data ?? []).map((list) => (
            <option key={list.id} value={list.id}>
              {list.name}
            </option>
          ))}
        </Select>
      </div>
      <div>
        <Label htmlFor="new-basis">{t('contacts.form.legalBasis')}</Label>
        <Select
          id="new-basis"
          aria-describedby="new-basis-hint"
          className="mt-1.5"
          value={legalBasis}
          onChange={(e) => setLegalBasis(e.target.value as 'consent' | 'legitimate_interest')}
        >
          {Object.entries(LEGAL_BASIS_LABELS).map(([value, label]) => (
            <option key={value} value={value}>
              {t(label)}
            </option>
          ))}
        </Select>
        <p id="new-basis-hint" className="mt-1 text-xs text-slate-500">
          {t('contacts.form.legalBasisHint')}
        </p>
      </div>
      <div>
        <Label htmlFor="new-source">{t('contacts.form.consentSource')}</Label>
        <Input
          id="new-source"
          aria-describedby="new-source-hint"
          className="mt-1.5"
          value={consentSource}
          onChange={(e) => setConsentSource(e.target.value)}
        />
        <p id="new-source-hint" className="mt-1 text-xs text-slate-500">
          {t('contacts.form.consentSourceHint')}
        </p>
      </div>
      <CustomFieldsEditor fields={fields} onChange={setFields} keyPlaceholder="contacts.form.fieldExample" />
      <FieldError>{error}</FieldError>
      <Button type="submit" disabled={create.isPending}>
        {create.isPending ? t('contacts.form.saving') : t('contacts.form.submit')}
      </Button>
    </form>
  );
}
