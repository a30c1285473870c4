import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { FieldError, Label } from '@/components/ui/label';
import { errorText } from '@/lib/error-text';
import { useI18n } from '@/lib/i18n';
import { toast } from '@/stores/app-store';
import { useResendNonOpeners } from '../api/resend-non-openers';
import type { Campaign } from '../api/types';

/** "Reenviar para quem não abriu" on a sent campaign: a follow-up draft, optionally with a new subject. */
export function ResendNonOpeners({ campaign }: { campaign: Campaign }) {
  const { t } = useI18n();
  const navigate = useNavigate();
  const resend = useResendNonOpeners();
  const [open, setOpen] = useState(false);
  const [subject, setSubject] = useState(campaign.subject);
  const [error, setError] = useState<string | null>(null);
  if (!open) {
    return (
      <Button size="sm" variant="outline" onClick={() => setOpen(true)}>
        {t('campaigns.resend.action')}
      </Button>
    );
  }
  return (
    <Card className="w-full">
      <CardContent className="space-y-3 p-4">
        <p className="text-sm text-slate-600">{t('campaigns.resend.hint')}</p>
        <div>
          <Label htmlFor="resend-subject">{t('campaigns.resend.subject')}</Label>
          <Input id="resend-subject" className="mt-1.5" value={subject} onChange={(e) => setSubject(e.target.value)} />
        </div>
        <FieldError>{error}</FieldError>
        <div className="flex gap-2">
          <Button
            size="sm"
            disabled={resend.isPending}
            onClick={async () => {
              try {
                const draft = await resend.mutateAsync({ id: campaign.id, subject: subject.trim() || undefined });
                toast({ title: t('campaigns.resend.created'), variant: 'success' });
                navigate(`/dashboard/campaigns/${draft.id}/view`);
              } catch (e) {
                setError(errorText(e));
              }
            }}
          >
            {t('campaigns.resend.create')}
          </Button>
          <Button size="sm" variant="ghost" onClick={() => setOpen(false)}>
            {t('common.cancel')}
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}
