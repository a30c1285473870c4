import { lazy, Suspense } from 'react';
import { Link } from 'react-router';
import { PageHeader } from '@/components/coming-soon-page';
import { LoadingPanel } from '@/components/kit';
import { buttonVariants } from '@/components/ui/button';
import { useI18n } from '@/lib/i18n';
import { usePageTitle } from '@/lib/use-page-title';
import { useTimeZone } from '../components/use-time-zone';

// FullCalendar loads only on the calendar route.
const CalendarView = lazy(() => import('../components/calendar-view'));

export function CampaignCalendarPage() {
  const { t } = useI18n();
  usePageTitle(t('campaigns.calendar.pageTitle'));
  const timeZone = useTimeZone();
  return (
    <div>
      <PageHeader title={t('page.calendar.title')}>
        <Link to="/dashboard/campaigns/new" className={buttonVariants()}>
          {t('page.campaignNew.title')}
        </Link>
      </PageHeader>
      <Suspense fallback={<LoadingPanel label={t('campaigns.calendar.loading')} />}>
        <CalendarView timeZone={timeZone} />
      </Suspense>
    </div>
  );
}
