import { useEffect, useMemo, useState } from 'react';
import {
  downloadUrl,
  ErrorPanel,
  formatDate,
  formatNumber,
  LoadingPanel,
  pluralForm,
  Select,
  TableShell,
  td,
  th,
} from '@/components/kit';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { EmptyState, PeopleIcon } from '@/components/ui/empty-state';
import { Input } from '@/components/ui/input';
import { errorText } from '@/lib/error-text';
import { useI18n } from '@/lib/i18n';
import {
  CONTACT_STATUS_LABELS,
  CONTACTS_PAGE_SIZE,
  type ContactFilter,
  type ContactStatus,
  useContacts,
} from '@/lib/queries/contacts';
import { useLists } from '@/lib/queries/lists';
import { confirmAction, toast } from '@/stores/app-store';
import { useBulkContacts } from '../api/bulk-contacts';
import { exportContactsUrl } from '../api/export-contacts';
import { ContactDrawer } from './contact-drawer';

const STATUS_TONES: Record<ContactStatus, 'success' | 'neutral' | 'danger' | 'warning'> = {
  subscribed: 'success',
  unsubscribed: 'neutral',
  bounced: 'warning',
  complained: 'danger',
};

export function StatusBadge({ status }: { status: ContactStatus }) {
  const { t } = useI18n();
  return <Badge tone={STATUS_TONES[status]}>{t(CONTACT_STATUS_LABELS[status])}</Badge>;
}

function useDebounced<T>(value: T, ms: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

/**
 * Search, filters, keyset pagination ("Carregar mais"), bulk actions and CSV export over the account's contacts
 * (or one list's, with `fixedListId`). Opens a contact in the detail drawer.
 */
export function ContactsBrowser({ fixedListId, onAdd }: { fixedListId?: string; onAdd?: () => void }) {
  const { t, locale } = useI18n();
  const plural = (count: number) => pluralForm(locale, count);
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState<ContactStatus | ''>('');
  const [listId, setListId] = useState(fixedListId ?? '');
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [openId, setOpenId] = useState<string | null>(null);
  const [bulkList, setBulkList] = useState('');
  const [semicolon, setSemicolon] = useState(true);
  const debouncedSearch = useDebounced(search.trim(), 300);
  const filter: ContactFilter = useMemo(
    () => ({ search: debouncedSearch || undefined, status: status || undefined, listId: listId || undefined }),
    [debouncedSearch, status, listId],
  );
  const contacts = useContacts(filter);
  const lists = useLists();
  const bulk = useBulkContacts();
  const rows = contacts.data?.pages.flatMap((page) => page.items) ?? [];
  const listNames = new Map((lists.data ?? []).map((l) => [l.id, l.name]));

  // A new filter starts a new selection.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset on filter change only.
  useEffect(() => setSelected(new Set()), [filter]);

  const allSelected = rows.length > 0 && rows.every((row) => selected.has(row.id));
  const toggle = (id: string) => {
    const next = new Set(selected);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    setSelected(next);
  };

  async function runBulk(action: 'add_to_list' | 'remove_from_list' | 'unsubscribe' | 'delete', list?: string) {
    try {
      const result = await bulk.mutateAsync({ action, ids: [...selected], listId: list || undefined });
      const done = {
        add_to_list: 'added',
        remove_from_list: 'removed',
        unsubscribe: 'unsubscribed',
        delete: 'deleted',
      } as const;
      toast({
        title: t(`contacts.bulk.${done[action]}.${plural(result.affected)}`, { count: formatNumber(result.affected) }),
        variant: 'success',
      });
      setSelected(new Set());
    } catch (error) {
      toast({ title: t('contacts.bulk.failed'), description: errorText(error), variant: 'error' });
    }
  }

  const confirmBulk = (action: 'remove_from_list' | 'unsubscribe' | 'delete', list?: string) => {
    const n = selected.size;
    const count = formatNumber(n);
    const texts: Record<typeof action, [string, string]> = {
      remove_from_list: [
        t('contacts.bulk.removeTitle'),
        t(`contacts.bulk.removeBody.${plural(n)}`, { count, list: listNames.get(list ?? '') ?? '' }),
      ],
      unsubscribe: [t('contacts.bulk.unsubscribeTitle'), t(`contacts.bulk.unsubscribeBody.${plural(n)}`, { count })],
      delete: [t('contacts.bulk.deleteTitle'), t(`contacts.bulk.deleteBody.${plural(n)}`, { count })],
    };
    const [title, description] = texts[action];
    confirmAction({ title, description, action: () => runBulk(action, list) });
  };

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center gap-3">
        <div className="w-full min-w-64 sm:w-auto sm:flex-[2_1_18rem]">
          <label htmlFor="contact-search" className="sr-only">
            {t('contacts.search')}
          </label>
          <Input
            id="contact-search"
            type="search"
            placeholder={t('contacts.search')}
            value={search}
            onChange={(event) => setSearch(event.target.value)}
          />
        </div>
        <div className="grid w-full grid-cols-1 gap-3 sm:flex sm:w-auto">
          <Select
            aria-label={t('contacts.filter.status')}
            value={status}
            onChange={(event) => setStatus(event.target.value as ContactStatus | '')}
            className="w-full sm:w-44"
          >
            <option value="">{t('contacts.filter.allStatuses')}</option>
            {Object.entries(CONTACT_STATUS_LABELS).map(([value, label]) => (
              <option key={value} value={value}>
                {t(label)}
              </option>
            ))}
          </Select>
          {fixedListId ? null : (
            <Select
              aria-label={t('contacts.filter.list')}
              value={listId}
              onChange={(event) => setListId(event.target.value)}
              className="w-full sm:w-48"
            >
              <option value="">{t('contacts.filter.allLists')}</option>
              {(lists.data ?? []).map((list) => (
                <option key={list.id} value={list.id}>
                  {list.name}
                </option>
              ))}
            </Select>
          )}
        </div>
        <div className="flex flex-wrap items-center gap-2 sm:ml-auto">
          <label className="flex items-center gap-1.5 text-sm text-slate-600">
            <input
              type="checkbox"
              checked={semicolon}
              onChange={(event) => setSemicolon(event.target.checked)}
              className="accent-brand-700"
            />
            {t('contacts.export.semicolon')}
          </label>
          <Button variant="outline" onClick={() => downloadUrl(exportContactsUrl(filter, semicolon ? ';' : ','))}>
            {t('contacts.export.csv')}
          </Button>
          {onAdd ? <Button onClick={onAdd}>{t('contacts.new')}</Button> : null}
        </div>
      </div>

      {selected.size > 0 ? (
        <div
          className="flex flex-wrap items-center gap-2 rounded-xl border border-brand-200 bg-brand-50 p-3 text-sm"
          role="toolbar"
          aria-label={t('contacts.bulk.toolbar')}
        >
          <span className="font-semibold text-brand-900">
            {t(`contacts.bulk.selected.${plural(selected.size)}`, { count: formatNumber(selected.size) })}
          </span>
          <Select
            aria-label={t('contacts.bulk.list')}
            value={bulkList}
            onChange={(event) => setBulkList(event.target.value)}
            className="h-9 w-44"
          >
            <option value="">{t('contacts.bulk.chooseList')}</option>
            {(lists.data ?? []).map((list) => (
              <option key={list.id} value={list.id}>
                {list.name}
              </option>
            ))}
          </Select>
          <Button size="sm" variant="secondary" disabled={!bulkList} onClick={() => runBulk('add_to_list', bulkList)}>
            {t('contacts.bulk.add')}
          </Button>
          <Button
            size="sm"
            variant="outline"
            disabled={!(bulkList || fixedListId)}
            onClick={() => confirmBulk('remove_from_list', bulkList || fixedListId)}
          >
            {t('contacts.bulk.remove')}
          </Button>
          <Button size="sm" variant="outline" onClick={() => confirmBulk('unsubscribe')}>
            {t('contacts.bulk.unsubscribe')}
          </Button>
          <Button size="sm" variant="destructive" onClick={() => confirmBulk('delete')}>
            {t('contacts.bulk.delete')}
          </Button>
        </div>
      ) : null}

      {contacts.isPending ? (
        <LoadingPanel label={t('contacts.loading')} />
      ) : contacts.isError ? (
        <ErrorPanel error={contacts.error} onRetry={() => contacts.refetch()} />
      ) : rows.length === 0 ? (
        <EmptyState
          icon={<PeopleIcon />}
          title={t(filter.search || filter.status ? 'contacts.empty.filteredTitle' : 'contacts.empty.title')}
          description={t(filter.search || filter.status ? 'contacts.empty.filteredBody' : 'contacts.empty.body')}
        />
      ) : (
        <>
          <TableShell>
            <thead>
              <tr>
                <th className={`${th} w-10`}>
                  <input
                    type="checkbox"
                    aria-label={t('contacts.table.selectAll')}
                    checked={allSelected}
                    onChange={() => setSelected(allSelected ? new Set() : new Set(rows.map((r) => r.id)))}
                    className="accent-brand-700"
                  />
                </th>
                <th className={th}>{t('contacts.table.email')}</th>
                <th className={th}>{t('contacts.table.name')}</th>
                <th className={th}>{t('contacts.table.status')}</th>
                <th className={th}>{t('contacts.table.createdAt')}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((contact) => (
                <tr key={contact.id} className="hover:bg-slate-50">
                  <td className={td}>
                    <input
                      type="checkbox"
                      aria-label={t('contacts.table.select', { email: contact.email })}
                      checked={selected.has(contact.id)}
                      onChange={() => toggle(contact.id)}
                      className="accent-brand-700"
                    />
                  </td>
                  <td className={td}>
                    <button
                      type="button"
                      className="font-medium text-brand-800 hover:underline"
                      onClick={() => setOpenId(contact.id)}
                    >
                      {contact.email}
                    </button>
                  </td>
                  <td className={td}>{contact.name || <span className="text-slate-400">—</span>}</td>
                  <td className={td}>
                    <StatusBadge status={contact.status} />
                  </td>
                  <td className={td}>{formatDate(contact.createdAt)}</td>
                </tr>
              ))}
            </tbody>
          </TableShell>
          <div className="flex items-center justify-between text-sm text-slate-500">
            <span>
              {t(`${contacts.hasNextPage ? 'contacts.shownPaged' : 'contacts.shown'}.${plural(rows.length)}`, {
                count: formatNumber(rows.length),
                pageSize: formatNumber(CONTACTS_PAGE_SIZE),
              })}
            </span>
            {contacts.hasNextPage ? (
              <Button variant="outline" disabled={contacts.isFetchingNextPage} onClick={() => contacts.fetchNextPage()}>
                {contacts.isFetchingNextPage ? t('common.loading') : t('contacts.loadMore')}
              </Button>
            ) : null}
          </div>
        </>
      )}
      <ContactDrawer contactId={openId} onClose={() => setOpenId(null)} />
    </div>
  );
}
