import { API_KEY_PREFIX } from '@carteiro/shared';
import { Card } from '@/components/ui/card';
import { useSessionData } from '@/features/auth/utils/use-session';
import { useI18n } from '@/lib/i18n';
import { CopyButton } from './copy-button';

/** The first transactional send as one curl line: to yourself, from your confirmed address. */
export function quickStartCurl(origin: string, key: string, email: string): string {
  const body = JSON.stringify({
    from: { email },
    to: { email },
    subject: 'Meu primeiro e-mail pela API do Carteiro',
    html: '<p>Olá! Este e-mail foi enviado pela API do Carteiro.</p>',
  });
  return `curl -X POST ${origin}/api/v1/messages -H "Authorization: Bearer ${key}" -H "Content-Type: application/json" -H "Idempotency-Key: primeiro-envio-1" -d '${body.replace(/'/g, "'\\''")}'`;
}

export function QuickStartSection({ secret }: { secret: string | null }) {
  const { t } = useI18n();
  const session = useSessionData();
  const line = quickStartCurl(window.location.origin, secret ?? `${API_KEY_PREFIX}SUA_CHAVE`, session.user.email);
  return (
    <section aria-labelledby="api-quick-start-title">
      <Card className="p-5">
        <h2 id="api-quick-start-title" className="text-lg font-semibold text-slate-900">
          {t('apiKeys.quickStart.title')}
        </h2>
        <p className="mt-1 text-sm text-slate-600">
          {secret ? t('apiKeys.quickStart.withKey') : t('apiKeys.quickStart.body')}
        </p>
        <pre
          className="mt-3 overflow-x-auto whitespace-pre-wrap break-all rounded-lg bg-slate-950 p-4 font-mono text-xs leading-relaxed text-slate-100"
          data-testid="api-quick-start"
        >
          {line}
        </pre>
        <div className="mt-3 flex flex-wrap items-center gap-3">
          <CopyButton text={line} label={t('apiKeys.quickStart.copy')} testId="api-quick-start-copy" />
          <span className="text-xs text-slate-500">{t('apiKeys.quickStart.hint')}</span>
        </div>
      </Card>
    </section>
  );
}
