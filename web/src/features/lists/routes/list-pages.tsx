import { listCreateSchema } from '@carteiro/shared';
import { type ReactNode, useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { PageHeader } from '@/components/coming-soon-page';
import { ImportProgressPanel } from '@/components/imports/import-progress';
import { ImportWizard } from '@/components/imports/import-wizard';
import {
  Drawer,
  ErrorPanel,
  formatDate,
  formatNumber,
  LoadingPanel,
  Stat,
  TableShell,
  Textarea,
  td,
  th,
} from '@/components/kit';
import { Badge } from '@/components/ui/badge';
import { Button, buttonVariants } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { Input } from '@/components/ui/input';
import { FieldError, Label } from '@/components/ui/label';
import { errorText } from '@/lib/error-text';
import { submitParsed } from '@/lib/form-fields';
import { useI18n } from '@/lib/i18n';
import type { MailingList } from '@/lib/queries/lists';
import { useCreateList, useLists } from '@/lib/queries/lists';
import { usePageTitle } from '@/lib/use-page-title';
import { confirmAction, toast } from '@/stores/app-store';
import { resumeImport } from '@/stores/import-tracker';
import { useDeleteList } from '../api/delete-list';
import { useList } from '../api/get-list';
import { useUpdateList } from '../api/update-list';
import { SubscribeFormPanel } from '../components/subscribe-form-panel';

export function ListsPage() {
  const { t } = useI18n();
  usePageTitle(t('lists.title'));
  const lists = useLists();
  return (
    <div>
      <PageHeader title={t('lists.title')}>
        <Link to="/dashboard/lists/new" className={buttonVariants()}>
          {t('lists.new')}
        </Link>
      </PageHeader>
      {lists.isPending ? (
        <LoadingPanel label={t('lists.loading')} />
      ) : lists.isError ? (
        <ErrorPanel error={lists.error} onRetry={() => lists.refetch()} />
      ) : lists.data.length === 0 ? (
        <EmptyState
          title={t('lists.empty.title')}
          description={t('lists.empty.body')}
          action={
            <Link to="/dashboard/lists/new" className={buttonVariants()}>
              {t('lists.empty.action')}
            </Link>
          }
        />
      ) : (
        <TableShell>
          <thead>
            <tr>
              <th className={th}>{t('lists.table.name')}</th>
              <th className={`${th} text-right`}>{t('lists.table.contacts')}</th>
              <th className={`${th} text-right`}>{t('lists.table.subscribed')}</th>
              <th className={th}>{t('lists.table.optIn')}</th>
              <th className={th}>{t('lists.table.createdAt')}</th>
            </tr>
          </thead>
          <tbody>
            {lists.data.map((list) => (
              <tr key={list.id} className="hover:bg-slate-50">
                <td className={td}>
                  <Link to={`/dashboard/lists/${list.id}`} className="font-semibold text-brand-800 hover:underline">
                    {list.name}
                  </Link>
                  {list.description ? <p className="truncate text-xs text-slate-500">{list.description}</p> : null}
                </td>
                <td className={`${td} text-right tabular-nums`}>{formatNumber(list.contactCount)}</td>
                <td className={`${td} text-right tabular-nums`}>{formatNumber(list.subscribedCount)}</td>
                <td className={td}>
                  <OptInBadge optIn={list.optIn} />
                </td>
                <td className={td}>{formatDate(list.createdAt)}</td>
              </tr>
            ))}
          </tbody>
        </TableShell>
      )}
    </div>
  );
}

function OptInBadge({ optIn }: { optIn: MailingList['optIn'] }) {
  const { t } = useI18n();
  return optIn === 'double' ? (
    <Badge tone="brand">{t('lists.optIn.double')}</Badge>
  ) : (
    <Badge tone="neutral">{t('lists.optIn.single')}</Badge>
  );
}

interface ListFormValues {
  name: string;
  description: string;
  optIn: 'single' | 'double';
}

function ListForm({
  initial,
  submitLabel,
  pending,
  onSubmit,
}: {
  initial: ListFormValues;
  submitLabel: string;
  pending: boolean;
  onSubmit: (values: { name: string; description: string | null; optIn: 'single' | 'double' }) => Promise<unknown>;
}) {
  const { t } = useI18n();
  const [values, setValues] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  return (
    <form
      noValidate
      className="space-y-5"
      onSubmit={async (event) => {
        event.preventDefault();
        await submitParsed(
          listCreateSchema,
          values,
          setError,
          (input) =>
            onSubmit({ name: input.name, description: input.description || null, optIn: input.optIn ?? 'single' }),
          t('lists.fields.checkFields'),
        );
      }}
    >
      <div>
        <Label htmlFor="list-name">{t('lists.fields.name')}</Label>
        <Input
          id="list-name"
          className="mt-1.5"
          value={values.name}
          maxLength={200}
          aria-invalid={Boolean(error) || undefined}
          onChange={(event) => setValues({ ...values, name: event.target.value })}
          placeholder={t('lists.fields.namePlaceholder')}
        />
      </div>
      <div>
        <Label htmlFor="list-description">{t('lists.fields.description')}</Label>
        <Textarea
          id="list-description"
          className="mt-1.5"
          rows={3}
          value={values.description}
          onChange={(event) => setValues({ ...values, description: event.target.value })}
        />
      </div>
      <fieldset>
        <legend className="text-sm font-medium text-slate-800">{t('lists.fields.optIn')}</legend>
        <div className="mt-2 grid gap-3 sm:grid-cols-2">
          {(
            [
              ['single', 'lists.optIn.single', 'lists.optIn.singleHint'],
              ['double', 'lists.optIn.double', 'lists.optIn.doubleHint'],
            ] as const
          ).map(([value, title, text]) => (
            <label
              key={value}
              className={`flex cursor-pointer gap-3 rounded-xl border p-4 ${values.optIn === value ? 'border-brand-600 bg-brand-50' : 'border-slate-200'}`}
            >
              <input
                type="radio"
                name="optIn"
                value={value}
                checked={values.optIn === value}
                onChange={() => setValues({ ...values, optIn: value })}
                className="mt-1 accent-brand-700"
              />
              <span>
                <span className="block font-semibold text-slate-900">{t(title)}</span>
                <span className="block text-sm text-slate-600">{t(text)}</span>
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      <FieldError>{error}</FieldError>
      <Button type="submit" disabled={pending}>
        {pending ? t('lists.saving') : submitLabel}
      </Button>
    </form>
  );
}

export function NewListPage() {
  const { t } = useI18n();
  usePageTitle(t('lists.new'));
  const create = useCreateList();
  const navigate = useNavigate();
  return (
    <div className="max-w-2xl">
      <Link to="/dashboard/lists" className="text-sm text-brand-700 hover:underline">
        {t('lists.back')}
      </Link>
      <PageHeader title={t('lists.new')} />
      <Card>
        <CardContent>
          <ListForm
            initial={{ name: '', description: '', optIn: 'single' }}
            submitLabel={t('lists.create')}
            pending={create.isPending}
            onSubmit={async (input) => {
              const list = await create.mutateAsync(input);
              toast({ title: t('lists.created'), description: list.name, variant: 'success' });
              navigate(`/dashboard/lists/${list.id}`);
            }}
          />
        </CardContent>
      </Card>
    </div>
  );
}

/**
 * A list's page. Its contacts are the contacts feature's browser filtered to the list: the route layer passes it in
 * (app/list-page.tsx), so lists does not import contacts.
 */
export function ListPage({ contacts }: { contacts: (listId: string) => ReactNode }) {
  const { t } = useI18n();
  const { id = '' } = useParams();
  const list = useList(id);
  const update = useUpdateList(id);
  const remove = useDeleteList();
  const navigate = useNavigate();
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [importOpen, setImportOpen] = useState(false);
  const [formOpen, setFormOpen] = useState(false);
  usePageTitle(list.data?.name ?? t('lists.fallbackTitle'));
  useEffect(() => resumeImport(), []);

  if (list.isPending) return <LoadingPanel />;
  if (list.isError) return <ErrorPanel error={list.error} onRetry={() => list.refetch()} />;
  const data = list.data;

  return (
    <div>
      <Link to="/dashboard/lists" className="text-sm text-brand-700 hover:underline">
        {t('lists.back')}
      </Link>
      <PageHeader title={data.name}>
        <div className="flex flex-wrap gap-2">
          <Button onClick={() => setImportOpen(true)}>{t('lists.importCsv')}</Button>
          <Button variant="outline" onClick={() => setFormOpen(true)}>
            {t('lists.subscribeForm')}
          </Button>
          <Button variant="outline" onClick={() => setSettingsOpen(true)}>
            {t('lists.settings')}
          </Button>
          <Button
            variant="destructive"
            onClick={() =>
              confirmAction({
                title: t('lists.delete.title'),
                description: t('lists.delete.body', { name: data.name }),
                action: async () => {
                  try {
                    await remove.mutateAsync(data.id);
                    toast({ title: t('lists.delete.done'), variant: 'success' });
                    navigate('/dashboard/lists');
                  } catch (error) {
                    toast({ title: t('lists.delete.failed'), description: errorText(error), variant: 'error' });
                  }
                },
              })
            }
          >
            {t('lists.delete.action')}
          </Button>
        </div>
      </PageHeader>
      {data.description ? <p className="-mt-4 mb-6 text-slate-600">{data.description}</p> : null}
      <div className="mb-6 grid gap-3 sm:grid-cols-4">
        <Stat label={t('lists.table.contacts')} value={formatNumber(data.contactCount)} />
        <Stat label={t('lists.table.subscribed')} value={formatNumber(data.subscribedCount)} />
        <Stat label={t('lists.stats.confirmation')} value={<OptInBadge optIn={data.optIn} />} />
        <Stat
          label={t('lists.table.createdAt')}
          value={<span className="text-lg">{formatDate(data.createdAt)}</span>}
        />
      </div>
      {importOpen ? null : <ImportProgressPanel />}
      <h2 className="mb-3 text-lg font-bold text-slate-900">{t('lists.contactsTitle')}</h2>
      {contacts(data.id)}
      <Drawer open={settingsOpen} title={t('lists.settingsTitle')} onClose={() => setSettingsOpen(false)}>
        <ListForm
          initial={{ name: data.name, description: data.description ?? '', optIn: data.optIn }}
          submitLabel={t('lists.save')}
          pending={update.isPending}
          onSubmit={async (input) => {
            await update.mutateAsync(input);
            toast({ title: t('lists.saved'), variant: 'success' });
            setSettingsOpen(false);
          }}
        />
      </Drawer>
      <Drawer open={formOpen} title={t('lists.subscribeForm')} onClose={() => setFormOpen(false)}>
        <SubscribeFormPanel listId={data.id} />
      </Drawer>
      <Drawer open={importOpen} title={t('lists.importTitle')} wide onClose={() => setImportOpen(false)}>
        <ImportWizard defaultListId={data.id} onClose={() => setImportOpen(false)} />
      </Drawer>
    </div>
  );
}
