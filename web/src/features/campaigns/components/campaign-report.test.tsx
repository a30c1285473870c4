import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { configureApiClient } from '@/lib/api-client';
import { setLocale, translate } from '@/lib/i18n';
import '@/lib/i18n/app-messages';
import { renderWithProviders, testQueryClient } from '@/test/render';
import type { RecipientActivity } from '../api/get-recipients';
import type { CampaignReport } from '../api/get-report';
import type { Campaign } from '../api/types';
import { CampaignReportSection, ReportBody } from './campaign-report';
import { activitySummary, hourlyPoints } from './report-data';

const CAMPAIGN_ID = '0190b5d2-0000-7000-8000-0000000000c1';
const TZ = 'America/Sao_Paulo';
/** The machine is shared: give async renders room. */
const SLOW = { timeout: 5_000 };

/** The shape GET /api/campaigns/:id/report answers (server/src/modules/reports/reports.ts). */
const report: CampaignReport = {
  campaignId: CAMPAIGN_ID,
  recipients: 12_500,
  delivered: 12_345,
  failed: 120,
  skipped: 35,
  skippedByReason: { contact_unsubscribed: 20, suppressed: 15 },
  abTest: null,
  pending: 0,
  opens: { uniqueHuman: 4_321, machine: 1_002, total: 7_000, rate: 0.35 },
  clicks: { unique: 987, machine: 12, total: 1_500, rate: 0.08, clickToOpenRate: 0.2284 },
  links: [
    { id: 2, url: 'https://loja.example.com.br/promocao-de-marco', clicks: 1_200, uniqueClicks: 800 },
    { id: 1, url: 'https://loja.example.com.br/', clicks: 300, uniqueClicks: 187 },
  ],
  unsubscribes: 42,
  bounces: { hard: 80, soft: 30, policy: 10 },
  complaints: 3,
  pausedReason: null,
  series: [
    { hour: '2026-11-20T13:00:00Z', opens: 2_500, clicks: 600, unsubscribes: 10, bounces: 0, complaints: 0 },
    { hour: '2026-11-20T16:00:00Z', opens: 1_000, clicks: 300, unsubscribes: 2, bounces: 0, complaints: 1 },
  ],
};

const empty: CampaignReport = {
  ...report,
  delivered: 3,
  recipients: 3,
  failed: 0,
  skipped: 0,
  skippedByReason: {},
  opens: { uniqueHuman: 0, machine: 0, total: 0, rate: 0 },
  clicks: { unique: 0, machine: 0, total: 0, rate: 0, clickToOpenRate: 0 },
  links: [],
  unsubscribes: 0,
  bounces: { hard: 0, soft: 0, policy: 0 },
  complaints: 0,
  series: [],
};

function recipient(id: number, email: string, extra: Partial<RecipientActivity> = {}): RecipientActivity {
  return {
    messageId: id,
    contactId: null,
    email,
    status: 'sent',
    sentAt: '2026-11-20T12:00:00.000Z',
    opens: 0,
    clicks: 0,
    lastOpenAt: null,
    lastClickAt: null,
    unsubscribed: false,
    bounce: null,
    complained: false,
    skipReason: null,
    variant: null,
    ...extra,
  };
}

const campaign = { id: CAMPAIGN_ID, status: 'sent', name: 'Promoção' } as Campaign;

let restore: () => void = () => {};
afterEach(() => restore());

function withClient(ui: React.ReactNode) {
  const client = testQueryClient();
  return renderWithProviders(ui, { client });
}

describe('report data helpers', () => {
  it('fills the quiet hours with zeros and labels them in São Paulo time', () => {
    const points = hourlyPoints(report.series, TZ);
    expect(points.map((p) => p.label)).toEqual(['20/11 10h', '20/11 11h', '20/11 12h', '20/11 13h']);
    expect(points.map((p) => p.opens)).toEqual([2_500, 0, 0, 1_000]);
    expect(activitySummary(points, (key, params) => translate('pt-BR', key, params))).toBe(
      '3.500 aberturas e 900 cliques no total; pico de 2.500 aberturas em 20/11 10h.',
    );
  }, 20_000);
});

describe('ReportBody', () => {
  it('shows every number pt-BR formatted, the per-link table and the bounces by kind', async () => {
    withClient(<ReportBody report={report} timeZone={TZ} />);
    const numbers = screen.getByTestId('report-numbers');
    expect(within(numbers).getByText('12.345')).toBeTruthy();
    expect(within(numbers).getByText('de 12.500 destinatários · 120 falharam · 35 não enviados')).toBeTruthy();
    // Why they were not sent, in the rule's order, with pt-BR labels.
    expect(screen.getByTestId('skip-reasons').textContent).toBe(
      'Não enviados, por motivo: Contato descadastrado: 20 · Endereço na lista de supressão: 15',
    );
    expect(within(numbers).getByText('4.321')).toBeTruthy();
    expect(within(numbers).getByText('35% dos entregues · 1.002 automáticas à parte')).toBeTruthy();
  });

  it('says one in the singular: "1 automática à parte", "1 falhou" (never "(s)")', async () => {
    const one = { ...report, recipients: 1, failed: 1, skipped: 1, opens: { ...report.opens, machine: 1 } };
    withClient(<ReportBody report={one} timeZone={TZ} />);
    const numbers = screen.getByTestId('report-numbers');
    expect(within(numbers).getByText('de 1 destinatário · 1 falhou · 1 não enviado')).toBeTruthy();
    expect(within(numbers).getByText(/· 1 automática à parte$/)).toBeTruthy();
    expect(numbers.textContent).not.toContain('(s)');
    expect(within(numbers).getByText('987')).toBeTruthy();
    expect(within(numbers).getByText('8% dos entregues · 22,8% de quem abriu')).toBeTruthy();
    expect(within(numbers).getByText('42')).toBeTruthy();
    expect(within(numbers).getByText('120')).toBeTruthy();
    expect(within(numbers).getByText('80 permanentes · 30 temporárias · 10 por política')).toBeTruthy();
    expect(within(numbers).getByText('3')).toBeTruthy();

    const rows = screen.getAllByTestId('link-row');
    expect(rows).toHaveLength(2);
    expect(rows[0]?.textContent).toBe('https://loja.example.com.br/promocao-de-marco1.200800');
    expect(rows[1]?.textContent).toBe('https://loja.example.com.br/300187');

    // The chart has a text summary and a table alternative.
    expect(screen.getByTestId('activity-summary').textContent).toContain('3.500 aberturas e 900 cliques');
    expect(screen.getByRole('figure', { name: 'Gráfico de aberturas e cliques por hora' })).toBeTruthy();
    const table = screen.getByRole('table', { name: 'Aberturas e cliques por hora' });
    expect(within(table).getByText('20/11 10h')).toBeTruthy();
    expect(within(table).getByText('2.500')).toBeTruthy();
    expect(within(table).queryByText('20/11 11h')).toBeNull();

    const bounces = screen.getByTestId('report-bounces');
    expect(within(bounces).getByText('Permanentes').nextSibling?.textContent).toBe('80');
    // Recharts arrives in its own chunk.
    await waitFor(() => expect(screen.queryByText('Carregando o gráfico…')).toBeNull(), SLOW);
  }, 20_000);

  it('has a pt-BR empty state while nobody opened or clicked', () => {
    withClient(<ReportBody report={empty} timeZone={TZ} />);
    expect(screen.getByText(/Ainda não há aberturas nem cliques/)).toBeTruthy();
    expect(screen.getByText('Este e-mail não tem links rastreados.')).toBeTruthy();
    expect(screen.getByText('Nenhuma devolução até agora.')).toBeTruthy();
    expect(screen.queryByRole('figure')).toBeNull();
  }, 20_000);
});

describe('ReportBody in English', () => {
  afterEach(() => setLocale('pt-BR'));

  it('shows the en catalogue: labels, counts, skip reasons and the chart summary', async () => {
    await setLocale('en');
    withClient(<ReportBody report={report} timeZone={TZ} />);
    const numbers = screen.getByTestId('report-numbers');
    expect(within(numbers).getByText('Delivered')).toBeTruthy();
    expect(within(numbers).getByText('of 12.500 recipients · 120 failed · 35 not sent')).toBeTruthy();
    expect(within(numbers).getByText('35% of delivered · 1.002 automatic apart')).toBeTruthy();
    expect(screen.getByTestId('skip-reasons').textContent).toBe(
      'Not sent, by reason: Contact unsubscribed: 20 · Address on the suppression list: 15',
    );
    expect(screen.getByTestId('activity-summary').textContent).toBe(
      '3.500 opens and 900 clicks in total; peak of 2.500 opens at 20/11 10h.',
    );
    expect(within(screen.getByTestId('report-bounces')).getByText('Permanent')).toBeTruthy();
    await waitFor(() => expect(screen.queryByText('Loading the chart…')).toBeNull(), SLOW);
  }, 20_000);
});

describe('CampaignReportSection', () => {
  it('loads the report, lists recipients, searches them and loads more with the cursor', async () => {
    const fetch = vi.fn(async (input: RequestInfo | URL) => {
      const url = new URL(String(input), 'http://localhost');
      if (url.pathname.endsWith('/report')) return Response.json(report);
      if (url.pathname.endsWith('/recipients')) {
        const search = url.searchParams.get('search');
        if (search) return Response.json({ items: [recipient(9, 'bruno@example.com')], nextCursor: null });
        if (url.searchParams.get('cursor') === '2')
          return Response.json({ items: [recipient(3, 'carla@example.com', { bounce: 'hard' })], nextCursor: null });
        return Response.json({
          items: [
            recipient(1, 'ana@example.com', { opens: 2, clicks: 1, lastOpenAt: '2026-11-20T13:10:00.000Z' }),
            recipient(2, 'beto@example.com', { unsubscribed: true }),
            recipient(4, 'dora@example.com', { status: 'skipped', sentAt: null, skipReason: 'left_list' }),
          ],
          nextCursor: '2',
        });
      }
      return Response.json({}, { status: 404 });
    });
    restore = configureApiClient({ fetch });
    withClient(<CampaignReportSection campaign={campaign} timeZone={TZ} />);

    expect(await screen.findByText('12.345', undefined, SLOW)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Exportar CSV por destinatário' }).getAttribute('href')).toBe(
      `/api/campaigns/${CAMPAIGN_ID}/report.csv`,
    );
    await screen.findByText('ana@example.com', undefined, SLOW);
    expect(screen.getByText('descadastrou')).toBeTruthy();
    // A skipped recipient says why it was not sent.
    expect(screen.getByText('saiu da lista')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Carregar mais' }));
    await screen.findByText('carla@example.com', undefined, SLOW);
    expect(screen.getByText('devolução permanente')).toBeTruthy();
    expect(screen.getAllByTestId('recipient-row')).toHaveLength(4);
    expect(screen.queryByRole('button', { name: 'Carregar mais' })).toBeNull();
    expect(fetch.mock.calls.some(([url]) => String(url).includes('cursor=2'))).toBe(true);

    fireEvent.change(screen.getByLabelText('Buscar destinatário por e-mail'), { target: { value: 'Bruno' } });
    await screen.findByText('bruno@example.com', undefined, SLOW);
    expect(screen.getAllByTestId('recipient-row')).toHaveLength(1);
    expect(fetch.mock.calls.some(([url]) => String(url).includes('search=bruno'))).toBe(true);
  }, 20_000);

  it('renders nothing for a draft', () => {
    restore = configureApiClient({ fetch: vi.fn() });
    const { container } = withClient(
      <CampaignReportSection campaign={{ ...campaign, status: 'draft' }} timeZone={TZ} />,
    );
    expect(container.textContent).toBe('');
  }, 20_000);
});

describe('AbTestComparison', () => {
  const variant = (index: number, letter: string, subject: string, delivered: number, opens: number) => ({
    index,
    letter,
    subject,
    fromName: null,
    ownContent: false,
    recipients: delivered,
    delivered,
    uniqueOpens: opens,
    uniqueClicks: 0,
    openRate: opens / delivered,
    clickRate: 0,
  });
  const decided: NonNullable<CampaignReport['abTest']> = {
    criterion: 'opens',
    testPercent: 20,
    waitHours: 4,
    decideAt: '2026-11-20T16:00:00.000Z',
    decidedAt: '2026-11-20T16:00:05.000Z',
    winner: 1,
    reason: 'Variante B venceu: 31,2% de aberturas contra 24,5% (aberturas automáticas não contam).',
    held: 0,
    variants: [variant(0, 'A', 'Oferta de verão', 1000, 245), variant(1, 'B', 'Só hoje: 20% off', 1000, 312)],
  };

  it('marks the winner, shows each variant’s rates and says why it won', () => {
    withClient(<ReportBody report={{ ...report, abTest: decided }} timeZone={TZ} />);
    const card = screen.getByTestId('ab-report');
    const rows = within(card).getAllByTestId('ab-variant-row');
    expect(rows).toHaveLength(2);
    expect(within(rows[1] as HTMLElement).getByText('Vencedora')).toBeTruthy();
    expect(within(rows[0] as HTMLElement).queryByText('Vencedora')).toBeNull();
    expect(rows[1]?.textContent).toContain('312 (31,2%)');
    expect(rows[0]?.textContent).toContain('245 (24,5%)');
    expect(within(card).getByTestId('ab-reason').textContent).toBe(
      'Variante B venceu: 31,2% de aberturas contra 24,5% (aberturas automáticas não contam). Escolhida em 20/11/2026, 13:00 e enviada ao restante do público.',
    );
  });

  it('while the test runs: when the winner is chosen and how many wait, in the singular too', () => {
    const running = { ...decided, winner: null, decidedAt: null, held: 1, reason: 'Teste em andamento.' };
    withClient(<ReportBody report={{ ...report, abTest: running }} timeZone={TZ} />);
    expect(screen.getByTestId('ab-reason').textContent).toBe(
      'Teste em andamento. Escolha prevista para 20/11/2026, 13:00; 1 destinatário aguarda o vencedor.',
    );
    expect(screen.queryByText('Vencedora')).toBeNull();
  });
});
