import { timeZoneLabel } from '@carteiro/shared';
import type { EventDropArg, EventInput } from '@fullcalendar/core';
import ptBrLocale from '@fullcalendar/core/locales/pt-br';
import dayGridPlugin from '@fullcalendar/daygrid';
import interactionPlugin from '@fullcalendar/interaction';
import FullCalendar from '@fullcalendar/react';
import timeGridPlugin from '@fullcalendar/timegrid';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { ErrorPanel } from '@/components/kit';
import { errorText } from '@/lib/error-text';
import { useI18n } from '@/lib/i18n';
import { toast } from '@/stores/app-store';
import { useCalendar } from '../api/get-calendar';
import { useScheduleCampaign } from '../api/schedule-campaign';
import type { Campaign } from '../api/types';
import { DEFAULT_TIME_ZONE, toZonedLocal, utcWallTime } from './zoned';

const DAY_MS = 86_400_000;

/**
 * FullCalendar (month and week, pt-BR). Times are shown in the account's zone: events carry their wall time in
 * that zone and the calendar runs in "UTC" so nothing shifts with the browser's zone; a drop sends the new wall
 * time without offset, which the server reads in the account's zone.
 */
export default function CalendarView({ timeZone = DEFAULT_TIME_ZONE }: { timeZone?: string }) {
  const { t, locale } = useI18n();
  const [range, setRange] = useState<{ from: string; to: string } | null>(null);
  const calendar = useCalendar(range);
  const schedule = useScheduleCampaign();
  const navigate = useNavigate();

  const events: EventInput[] = (calendar.data ?? [])
    .map((campaign: Campaign) => {
      const at = campaign.status === 'scheduled' ? campaign.scheduledAt : (campaign.startedAt ?? campaign.scheduledAt);
      if (!at) return null;
      const scheduled = campaign.status === 'scheduled';
      return {
        id: campaign.id,
        title: campaign.name,
        start: `${toZonedLocal(at, timeZone)}:00`,
        allDay: false,
        editable: scheduled,
        classNames: [scheduled ? 'cal-scheduled' : 'cal-sent'],
        backgroundColor: scheduled ? '#6d28d9' : '#059669',
        borderColor: scheduled ? '#5b21b6' : '#047857',
        extendedProps: { status: campaign.status },
      } satisfies EventInput;
    })
    .filter((event) => event !== null);

  async function onDrop(info: EventDropArg) {
    const start = info.event.start;
    if (!start || info.event.extendedProps.status !== 'scheduled') {
      info.revert();
      return;
    }
    try {
      await schedule.mutateAsync({ id: info.event.id, scheduledAt: utcWallTime(start) });
      toast({ title: t('campaigns.calendar.rescheduled'), description: info.event.title, variant: 'success' });
    } catch (error) {
      info.revert();
      toast({ title: t('campaigns.calendar.rescheduleFailed'), description: errorText(error), variant: 'error' });
    }
  }

  return (
    <div
      className={[
        'carteiro-calendar rounded-2xl border border-slate-200 bg-white p-3 shadow-sm sm:p-5',
        '[&_.fc-toolbar]:flex-wrap! [&_.fc-toolbar]:gap-2 [&_.fc-toolbar-title]:text-lg! sm:[&_.fc-toolbar-title]:text-2xl!',
        '[&_.fc-button-primary]:border-brand-800! [&_.fc-button-primary]:bg-brand-700! [&_.fc-button-active]:bg-brand-900!',
        '[&_.fc-event]:cursor-pointer',
        // Other months' days readable (WCAG 1.4.3: FullCalendar fades them to 1.96:1); names wrap instead of "Natal 202".
        '[&_.fc-day-other_.fc-daygrid-day-top]:opacity-100! [&_.fc-day-other_.fc-daygrid-day-number]:text-slate-500!',
        '[&_.fc-daygrid-event]:whitespace-normal! [&_.fc-event-title]:whitespace-normal! [&_.fc-event-title]:break-words',
      ].join(' ')}
    >
      {calendar.isError ? <ErrorPanel error={calendar.error} onRetry={() => calendar.refetch()} /> : null}
      <FullCalendar
        plugins={[dayGridPlugin, timeGridPlugin, interactionPlugin]}
        initialView="dayGridMonth"
        // English is FullCalendar's built-in locale.
        locale={locale === 'pt-BR' ? ptBrLocale : 'en'}
        timeZone="UTC"
        headerToolbar={{ left: 'prev,next today', center: 'title', right: 'dayGridMonth,timeGridWeek' }}
        // Text arrows instead of FullCalendar's icon font spans (role="img" without a name); the hints name them.
        buttonIcons={false}
        buttonText={{
          prev: '‹',
          next: '›',
          today: t('campaigns.calendar.today'),
          month: t('campaigns.calendar.month'),
          week: t('campaigns.calendar.week'),
        }}
        buttonHints={{
          prev: t('campaigns.calendar.previous'),
          next: t('campaigns.calendar.next'),
          today: t('campaigns.calendar.today'),
        }}
        height="auto"
        editable
        eventStartEditable
        eventDurationEditable={false}
        displayEventEnd={false}
        eventTimeFormat={{ hour: '2-digit', minute: '2-digit', hour12: false }}
        events={events}
        datesSet={(arg) => {
          const from = new Date(arg.start.getTime() - DAY_MS).toISOString();
          const to = new Date(arg.end.getTime() + DAY_MS).toISOString();
          setRange((prev) => (prev?.from === from && prev.to === to ? prev : { from, to }));
        }}
        eventDrop={onDrop}
        eventClick={(arg) => {
          arg.jsEvent.preventDefault();
          navigate(`/dashboard/campaigns/${arg.event.id}/view`);
        }}
      />
      <p className="mt-3 flex flex-wrap gap-4 text-xs text-slate-500">
        <span className="inline-flex items-center gap-1.5">
          <span className="h-2.5 w-2.5 rounded-full bg-violet-700" /> {t('campaigns.calendar.legendScheduled')}
        </span>
        <span className="inline-flex items-center gap-1.5">
          <span className="h-2.5 w-2.5 rounded-full bg-emerald-600" /> {t('campaigns.calendar.legendSent')}
        </span>
        <span>{t('campaigns.calendar.timeZone', { zone: timeZoneLabel(timeZone) })}</span>
      </p>
    </div>
  );
}
