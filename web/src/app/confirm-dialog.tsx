import { useState } from 'react';
import { AlertDialog } from '@/components/ui/alert-dialog';
import { Button } from '@/components/ui/button';
import { useI18n } from '@/lib/i18n';
import { useAppStore, useDialog } from '@/stores/app-store';

/**
 * The shell's one confirmation dialog (spec §4): open while `dialog` is set in the store.
 * Cancelar, Esc or the overlay clear it; Continuar runs the action once, then clears it.
 */
export function ConfirmDialog() {
  const dialog = useDialog();
  const store = useAppStore();
  const { t } = useI18n();
  const [running, setRunning] = useState(false);

  const close = () => store.dispatch({ type: 'SET_DIALOG', dialog: null });

  async function onContinue() {
    if (!dialog || running) return;
    setRunning(true);
    try {
      await dialog.action();
    } catch (error) {
      console.warn('the confirmed action failed', error);
      store.toast({
        title: t('common.error'),
        description: error instanceof Error ? error.message : undefined,
        variant: 'error',
      });
    } finally {
      setRunning(false);
      close();
    }
  }

  return (
    <AlertDialog
      open={dialog !== null}
      title={dialog?.title ?? ''}
      description={dialog?.description}
      onCancel={close}
      footer={
        <>
          <Button variant="outline" onClick={close} data-autofocus>
            {t('common.cancel')}
          </Button>
          <Button onClick={() => void onContinue()} disabled={running}>
            {t('common.continue')}
          </Button>
        </>
      }
    />
  );
}
