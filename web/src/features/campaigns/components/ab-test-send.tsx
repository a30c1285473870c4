import { abVariantLetter } from '@carteiro/shared';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { FieldError, Label } from '@/components/ui/label';
import { errorText } from '@/lib/error-text';
import { useI18n } from '@/lib/i18n';
import { toast, useUser } from '@/stores/app-store';
import { testSendCampaign } from '../api/test-send-campaign';
import type { Campaign } from '../api/types';
import { countForm } from './count-form';

/** Before sending an A/B campaign: one test e-mail of each variant, to see every subject in a real inbox. */
export function AbTestSend({ campaign }: { campaign: Campaign }) {
  const { t } = useI18n();
  const user = useUser();
  const [emails, setEmails] = useState(user?.email ?? '');
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  if (!campaign.abTest) return null;
  const count = campaign.abTest.variants.length + 1;
  return (
    <Card className="mb-6" data-testid="ab-test-send">
      <CardContent>
        <h2 className="mb-1 text-lg font-bold text-slate-900">{t('campaigns.abSend.title')}</h2>
        <p className="mb-3 text-sm text-slate-600">
          {t('campaigns.abSend.body', { count, last: abVariantLetter(count - 1) })}
        </p>
        <form
          className="flex flex-wrap items-end gap-2"
          onSubmit={async (event) => {
            event.preventDefault();
            const list = emails
              .split(/[,;\s]+/)
              .map((e) => e.trim())
              .filter(Boolean);
            setError(null);
            setPending(true);
            try {
              for (let variant = 0; variant < count; variant++) {
                await testSendCampaign(campaign.id, list, undefined, variant);
              }
              const total = count * list.length;
              toast({
                title: t(`campaigns.abSend.sent.${countForm(total)}`, { count: total }),
                description: t('campaigns.abSend.sentBody', { emails: list.join(', ') }),
                variant: 'success',
              });
            } catch (failure) {
              setError(errorText(failure));
            } finally {
              setPending(false);
            }
          }}
        >
          <div className="min-w-64 flex-1">
            <Label htmlFor="ab-test-emails">{t('campaigns.abSend.emails')}</Label>
            <Input id="ab-test-emails" className="mt-1.5" value={emails} onChange={(e) => setEmails(e.target.value)} />
          </div>
          <Button type="submit" disabled={pending}>
            {pending ? t('campaigns.abSend.sending') : t('campaigns.abSend.submit')}
          </Button>
        </form>
        <FieldError>{error}</FieldError>
      </CardContent>
    </Card>
  );
}
