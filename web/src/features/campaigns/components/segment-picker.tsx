import { Link } from 'react-router';
import { useI18n } from '@/lib/i18n';
import { useSegments } from '@/lib/queries/segments';

/** The campaign audience step's segments, next to the lists: tick the segments to mail. */
export function SegmentPicker({ selected, onChange }: { selected: string[]; onChange: (ids: string[]) => void }) {
  const { t } = useI18n();
  const segments = useSegments();
  const items = segments.data ?? [];
  return (
    <fieldset className="mt-6 border-t border-slate-100 pt-4">
      <legend className="text-sm font-semibold text-slate-800">{t('segments.audience.title')}</legend>
      {segments.isPending ? null : items.length === 0 ? (
        <p className="mt-1 text-sm text-slate-600">{t('segments.audience.none')}</p>
      ) : (
        <ul className="mt-2 space-y-1.5">
          {items.map((segment) => (
            <li key={segment.id}>
              <label className="flex items-center gap-2 text-sm text-slate-800">
                <input
                  type="checkbox"
                  className="accent-brand-700"
                  checked={selected.includes(segment.id)}
                  onChange={() =>
                    onChange(
                      selected.includes(segment.id)
                        ? selected.filter((id) => id !== segment.id)
                        : [...selected, segment.id],
                    )
                  }
                />
                {segment.name}
              </label>
            </li>
          ))}
        </ul>
      )}
      <p className="mt-2 text-xs text-slate-500">
        {t('segments.audience.hint')}{' '}
        <Link to="/dashboard/segments" className="font-semibold text-brand-700 hover:underline">
          {t('segments.audience.manage')}
        </Link>
      </p>
    </fieldset>
  );
}
