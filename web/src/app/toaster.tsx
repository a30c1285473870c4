import { ToastView } from '@/components/ui/toast';
import { useI18n } from '@/lib/i18n';
import { useAppStore, useToasts } from '@/stores/app-store';

/**
 * The one toast area of the shell (spec §2): shows the open toasts (at most 1) where they cover no page content
 * nor its actions — on a desktop at the bottom of the sidebar column (16rem, over the user's name), on a phone or
 * tablet at the top, inside the app's header bar (h-14: the card is made to fit it, so the page's title below stays
 * visible).
 */
export const TOASTER_PLACEMENT =
  'pointer-events-none fixed inset-x-0 top-0 z-[60] flex flex-col items-center gap-2 p-1 lg:inset-x-auto lg:top-auto lg:bottom-0 lg:left-0 lg:w-[16rem] lg:p-3 [&>*]:max-w-md';

export function Toaster() {
  const toasts = useToasts();
  const store = useAppStore();
  const { t } = useI18n();
  const open = toasts.filter((item) => item.open);
  return (
    <section aria-label={t('common.notifications')} className={TOASTER_PLACEMENT}>
      {open.map((item) => (
        <ToastView
          key={item.id}
          title={item.title}
          description={item.description}
          variant={item.variant}
          closeLabel={t('common.close')}
          onClose={() => store.dispatch({ type: 'DISMISS_TOAST', toastId: item.id })}
        />
      ))}
    </section>
  );
}
