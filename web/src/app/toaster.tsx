import { ToastView } from '@/components/ui/toast';
import { useI18n } from '@/lib/i18n';
import { useAppStore, useToasts } from '@/stores/app-store';

/** The one toast area of the shell (spec §2): shows the open toasts (at most 1) bottom-right. */
export function Toaster() {
  const toasts = useToasts();
  const store = useAppStore();
  const { t } = useI18n();
  const open = toasts.filter((item) => item.open);
  return (
    <section
      aria-label="Notificações"
      className="pointer-events-none fixed inset-x-0 bottom-0 z-[60] flex flex-col items-center gap-2 p-4 sm:inset-x-auto sm:right-0 sm:w-[24rem]"
    >
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
