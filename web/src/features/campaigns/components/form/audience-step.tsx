import { Link } from 'react-router';
import { formatNumber } from '@/components/kit';
import { useI18n } from '@/lib/i18n';
import { useLists } from '@/lib/queries/lists';
import { SegmentPicker } from '../segment-picker';
import type { FormValues, SetValues } from './form-values';

/** Step 3: the lists to send to and to exclude (a list is in one column at most), then the segments. */
export function AudienceStep({ values, set }: { values: FormValues; set: SetValues }) {
  const { t } = useI18n();
  const lists = useLists();
  const toggle = (key: 'includeListIds' | 'excludeListIds', id: string) => {
    const other = key === 'includeListIds' ? 'excludeListIds' : 'includeListIds';
    const has = values[key].includes(id);
    set({
      [key]: has ? values[key].filter((x) => x !== id) : [...values[key], id],
      [other]: values[other].filter((x) => x !== id),
    } as Partial<FormValues>);
  };
  return (
    <>
      {lists.isPending ? (
        <p className="text-sm text-slate-500">{t('campaigns.form.loadingLists')}</p>
      ) : (lists.data ?? []).length === 0 ? (
        <p className="text-sm text-slate-600">
          {t('campaigns.form.noLists')}{' '}
          <Link to="/dashboard/lists/new" className="font-semibold text-brand-700 hover:underline">
            {t('campaigns.form.noListsLink')}
          </Link>{' '}
          {t('campaigns.form.noListsAfter')}
        </p>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full text-left text-sm">
            <thead>
              <tr className="text-xs uppercase tracking-wide text-slate-500">
                <th className="py-2">{t('campaigns.form.col.list')}</th>
                <th className="py-2 text-right">{t('campaigns.form.col.subscribed')}</th>
                <th className="py-2 text-center">{t('campaigns.form.col.send')}</th>
                <th className="py-2 text-center">{t('campaigns.form.col.exclude')}</th>
              </tr>
            </thead>
            <tbody>
              {(lists.data ?? []).map((list) => (
                <tr key={list.id} className="border-t border-slate-100">
                  <td className="py-2 font-medium text-slate-800">{list.name}</td>
                  <td className="py-2 text-right tabular-nums">{formatNumber(list.subscribedCount)}</td>
                  <td className="py-2 text-center">
                    <input
                      type="checkbox"
                      aria-label={t('campaigns.form.includeList', { list: list.name })}
                      className="accent-brand-700"
                      checked={values.includeListIds.includes(list.id)}
                      onChange={() => toggle('includeListIds', list.id)}
                    />
                  </td>
                  <td className="py-2 text-center">
                    <input
                      type="checkbox"
                      aria-label={t('campaigns.form.excludeList', { list: list.name })}
                      className="accent-red-600"
                      checked={values.excludeListIds.includes(list.id)}
                      onChange={() => toggle('excludeListIds', list.id)}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <p className="mt-3 text-xs text-slate-500">{t('campaigns.form.audienceNote')}</p>
        </div>
      )}
      <SegmentPicker selected={values.includeSegmentIds} onChange={(includeSegmentIds) => set({ includeSegmentIds })} />
    </>
  );
}
