import { timeZoneLabel } from '@carteiro/shared';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { FieldError, Label } from '@/components/ui/label';
import { errorText } from '@/lib/error-text';
import { formatDateTime } from '@/lib/format';
import { useI18n } from '@/lib/i18n';
import { toast } from '@/stores/app-store';
import { useScheduleCampaign } from '../api/schedule-campaign';
import type { Campaign, CampaignSummary } from '../api/types';
import { useUnscheduleCampaign } from '../api/unschedule-campaign';
import { SendNowButton } from './campaign-live';
import { DetailItem as Item } from './detail-item';
import { formatInZone, toZonedLocal } from './zoned';

/** "Envio": when it is scheduled, schedule or reschedule, unschedule, send now; once started, when it ran. */
export function CampaignSendCard({
  campaign,
  summary,
  editable,
  timeZone,
}: {
  campaign: Campaign;
  summary: CampaignSummary | undefined;
  editable: boolean;
  timeZone: string;
}) {
  const { t, locale } = useI18n();
  const unschedule = useUnscheduleCampaign();
  return (
    <Card className="h-fit">
      <CardContent className="space-y-4">
        <h2 className="text-lg font-bold text-slate-900">{t('campaigns.send.title')}</h2>
        {campaign.status === 'scheduled' && campaign.scheduledAt ? (
          <div className="rounded-lg bg-brand-50 p-3 text-sm text-brand-900" data-testid="scheduled-at">
            {t('campaigns.send.scheduledFor')} <strong>{formatInZone(campaign.scheduledAt, timeZone, locale)}</strong>
          </div>
        ) : null}
        {editable ? <ScheduleForm campaign={campaign} timeZone={timeZone} /> : null}
        {campaign.status === 'scheduled' ? (
          <Button
            variant="outline"
            className="w-full"
            disabled={unschedule.isPending}
            onClick={async () => {
              try {
                await unschedule.mutateAsync(campaign.id);
                toast({
                  title: t('campaigns.send.unscheduled'),
                  description: t('campaigns.send.unscheduledBody'),
                  variant: 'success',
                });
              } catch (error) {
                toast({ title: t('campaigns.send.unscheduleFailed'), description: errorText(error), variant: 'error' });
              }
            }}
          >
            {t('campaigns.send.unschedule')}
          </Button>
        ) : null}
        {editable ? <SendNowButton campaign={campaign} summary={summary} /> : null}
        {!editable ? (
          <dl className="space-y-2 text-sm" data-testid="send-times">
            <Item label={t('campaigns.send.startedAt')}>
              {campaign.startedAt ? formatDateTime(campaign.startedAt, timeZone) : '—'}
            </Item>
            <Item label={t('campaigns.send.finishedAt')}>
              {campaign.finishedAt ? formatDateTime(campaign.finishedAt, timeZone) : t('campaigns.send.inProgress')}
            </Item>
          </dl>
        ) : null}
      </CardContent>
    </Card>
  );
}

function ScheduleForm({ campaign, timeZone }: { campaign: Campaign; timeZone: string }) {
  const { t } = useI18n();
  const schedule = useScheduleCampaign();
  const [value, setValue] = useState(() =>
    campaign.scheduledAt
      ? toZonedLocal(campaign.scheduledAt, timeZone)
      : `${toZonedLocal(new Date(Date.now() + 86_400_000), timeZone).slice(0, 11)}09:00`,
  );
  const [error, setError] = useState<string | null>(null);
  return (
    <form
      noValidate
      className="space-y-2"
      onSubmit={async (event) => {
        event.preventDefault();
        setError(null);
        try {
          await schedule.mutateAsync({ id: campaign.id, scheduledAt: value });
          toast({ title: t('campaigns.schedule.scheduled'), variant: 'success' });
        } catch (failure) {
          setError(errorText(failure));
        }
      }}
    >
      <Label htmlFor="schedule-at">{t('campaigns.schedule.at')}</Label>
      <Input id="schedule-at" type="datetime-local" value={value} onChange={(e) => setValue(e.target.value)} />
      <p className="text-xs text-slate-500">{t('campaigns.schedule.timeZone', { zone: timeZoneLabel(timeZone) })}</p>
      <FieldError>{error}</FieldError>
      <Button type="submit" variant="secondary" className="w-full" disabled={schedule.isPending || !value}>
        {campaign.status === 'scheduled' ? t('campaigns.schedule.reschedule') : t('campaigns.schedule.schedule')}
      </Button>
    </form>
  );
}
