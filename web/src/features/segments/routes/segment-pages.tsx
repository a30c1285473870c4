import { type SegmentGroup, segmentCreateSchema, segmentTreeSchema } from '@carteiro/shared';
import { useEffect, useMemo, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { PageHeader } from '@/components/coming-soon-page';
import { ErrorPanel, formatDate, formatNumber, LoadingPanel, TableShell, td, th } from '@/components/kit';
import { Button, buttonVariants } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { Input } from '@/components/ui/input';
import { FieldError, Label } from '@/components/ui/label';
import { errorText } from '@/lib/error-text';
import { submitParsed } from '@/lib/form-fields';
import { type MessageKey, useI18n } from '@/lib/i18n';
import {
  useCustomFields,
  useDeleteSegment,
  useSaveSegment,
  useSegment,
  useSegmentMatches,
  useSegments,
} from '@/lib/queries/segments';
import { usePageTitle } from '@/lib/use-page-title';
import { confirmAction, toast } from '@/stores/app-store';
import { emptyCondition, GroupEditor } from '../components/condition-editor';

/** `value`, once it has stopped changing for `ms` (the live count waits for the user to pause typing). */
function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

export function SegmentsPage() {
  const { t } = useI18n();
  usePageTitle(t('segments.title'));
  const segments = useSegments();
  const newLink = (
    <Link to="/dashboard/segments/new" className={buttonVariants()}>
      {t('segments.new')}
    </Link>
  );
  return (
    <div>
      <PageHeader title={t('segments.title')}>{newLink}</PageHeader>
      <p className="-mt-4 mb-6 text-slate-600">{t('segments.subtitle')}</p>
      {segments.isPending ? (
        <LoadingPanel label={t('segments.loading')} />
      ) : segments.isError ? (
        <ErrorPanel error={segments.error} onRetry={() => segments.refetch()} />
      ) : segments.data.length === 0 ? (
        <EmptyState title={t('segments.empty.title')} description={t('segments.empty.body')} action={newLink} />
      ) : (
        <TableShell>
          <thead>
            <tr>
              <th className={th}>{t('segments.table.name')}</th>
              <th className={th}>{t('segments.table.updatedAt')}</th>
            </tr>
          </thead>
          <tbody>
            {segments.data.map((s) => (
              <tr key={s.id} className="hover:bg-slate-50">
                <td className={td}>
                  <Link to={`/dashboard/segments/${s.id}`} className="font-semibold text-brand-800 hover:underline">
                    {s.name}
                  </Link>
                </td>
                <td className={td}>{formatDate(s.updatedAt)}</td>
              </tr>
            ))}
          </tbody>
        </TableShell>
      )}
    </div>
  );
}

const NEW_TREE: SegmentGroup = { type: 'group', match: 'all', conditions: [emptyCondition()] };

export function NewSegmentPage() {
  const { t } = useI18n();
  usePageTitle(t('segments.editor.newTitle'));
  return <SegmentEditor title={t('segments.editor.newTitle')} initialName="" initialTree={NEW_TREE} />;
}

export function SegmentPage() {
  const { t } = useI18n();
  const { id } = useParams();
  usePageTitle(t('segments.editor.editTitle'));
  const segment = useSegment(id);
  if (segment.isPending) return <LoadingPanel label={t('segments.loading')} />;
  if (segment.isError) return <ErrorPanel error={segment.error} onRetry={() => segment.refetch()} />;
  return (
    <SegmentEditor
      key={segment.data.id}
      id={segment.data.id}
      title={segment.data.name}
      initialName={segment.data.name}
      initialTree={segment.data.conditions}
    />
  );
}

function SegmentEditor({
  id,
  title,
  initialName,
  initialTree,
}: {
  id?: string;
  title: string;
  initialName: string;
  initialTree: SegmentGroup;
}) {
  const { t } = useI18n();
  const navigate = useNavigate();
  const [name, setName] = useState(initialName);
  const [tree, setTree] = useState<SegmentGroup>(initialTree);
  const [error, setError] = useState<string | null>(null);
  const customFields = useCustomFields();
  const save = useSaveSegment(id);
  const remove = useDeleteSegment();

  // The live count runs on the draft as soon as it is valid, after a short pause in typing.
  const valid = useMemo(() => segmentTreeSchema.safeParse(tree), [tree]);
  const settled = useDebounced(valid.success ? valid.data : null, 350);
  const { count, preview } = useSegmentMatches(settled);

  return (
    <div>
      <PageHeader title={title}>
        <Link to="/dashboard/segments" className={buttonVariants({ variant: 'outline' })}>
          {t('segments.editor.back')}
        </Link>
      </PageHeader>
      <div className="grid gap-6 lg:grid-cols-[1fr_20rem]">
        <form
          noValidate
          className="space-y-5"
          onSubmit={async (event) => {
            event.preventDefault();
            await submitParsed(segmentCreateSchema, { name, conditions: tree }, setError, async (input) => {
              const saved = await save.mutateAsync(input);
              toast({ title: t('segments.editor.saved'), variant: 'success' });
              if (!id) navigate(`/dashboard/segments/${saved.id}`);
            });
          }}
        >
          <div>
            <Label htmlFor="segment-name">{t('segments.editor.name')}</Label>
            <Input id="segment-name" className="mt-1.5" value={name} onChange={(e) => setName(e.target.value)} />
          </div>
          <GroupEditor group={tree} customFields={customFields.data ?? []} onChange={setTree} />
          <FieldError>{error}</FieldError>
          <div className="flex flex-wrap gap-2">
            <Button type="submit" disabled={save.isPending}>
              {t('segments.editor.save')}
            </Button>
            {id ? (
              <Button
                type="button"
                variant="destructive"
                onClick={() =>
                  confirmAction({
                    title: t('segments.editor.delete'),
                    description: t('segments.editor.deleteConfirm', { name: initialName }),
                    action: async () => {
                      try {
                        await remove.mutateAsync(id);
                        toast({ title: t('segments.editor.deleted'), variant: 'success' });
                        navigate('/dashboard/segments');
                      } catch (e) {
                        toast({ title: t('segments.editor.delete'), description: errorText(e), variant: 'error' });
                      }
                    },
                  })
                }
              >
                {t('segments.editor.delete')}
              </Button>
            ) : null}
          </div>
        </form>
        <aside className="space-y-4">
          <Card>
            <CardContent className="p-5">
              <p className="text-sm text-slate-600">{t('segments.count.label')}</p>
              <p
                className="mt-1 text-3xl font-bold tabular-nums text-slate-900"
                data-testid="segment-count"
                aria-live="polite"
              >
                {!valid.success
                  ? '—'
                  : count.data === undefined
                    ? t('segments.count.loading')
                    : formatNumber(count.data)}
              </p>
              {!valid.success ? (
                <p className="mt-1 text-xs text-slate-500">{t('segments.count.invalid')}</p>
              ) : count.isError ? (
                <p className="mt-1 text-sm text-red-700" role="alert">
                  {errorText(count.error)}
                </p>
              ) : null}
              <p className="mt-2 text-xs text-slate-500">{t('segments.count.note')}</p>
            </CardContent>
          </Card>
          <Card>
            <CardContent className="p-5">
              <p className="mb-2 text-sm font-semibold text-slate-800">{t('segments.preview.title')}</p>
              {preview.data && preview.data.length === 0 ? (
                <p className="text-sm text-slate-500">{t('segments.preview.empty')}</p>
              ) : (
                <ul className="space-y-1 text-sm" data-testid="segment-preview">
                  {(preview.data ?? []).map((c) => (
                    <li key={c.id} className="truncate">
                      <span className="text-slate-900">{c.email}</span>
                      {c.status !== 'subscribed' ? (
                        <span className="ml-1 text-xs text-slate-500">
                          ({t(`segments.status.${c.status}` as MessageKey)})
                        </span>
                      ) : null}
                    </li>
                  ))}
                </ul>
              )}
            </CardContent>
          </Card>
        </aside>
      </div>
    </div>
  );
}
