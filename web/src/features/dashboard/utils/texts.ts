import { type Locale, useI18n } from '@/lib/i18n';

/** Texts of the home's numbers and chart (kept beside the feature; the shared catalogue is not ours to grow). */
const TEXTS = {
  'pt-BR': {
    sentThisMonth: 'E-mails entregues no mês',
    sentTotal: '{count} desde o início',
    openRate: 'Taxa de abertura',
    clickRate: 'Taxa de cliques',
    rateWindow: 'sobre os e-mails entregues desde {date} ({count})',
    rateNone: 'ainda sem e-mails entregues',
    chartTitle: 'Suas últimas campanhas',
    chartLabel: 'Gráfico de entregues, aberturas e cliques das últimas campanhas',
    chartEmpty: 'O gráfico aparece depois do primeiro envio.',
    chartTable: 'Ver os dados em tabela',
    campaign: 'Campanha',
    delivered: 'Entregues',
    opened: 'Aberturas',
    clicked: 'Cliques',
    loading: 'Carregando o gráfico…',
    summary:
      'Últimas campanhas ({campaigns}): {delivered} {deliveredWord}, {opened} {openedWord} e {clicked} {clickedWord}.',
    deliveredOne: 'entregue',
    deliveredOther: 'entregues',
    openedOne: 'abertura',
    openedOther: 'aberturas',
    clickedOne: 'clique',
    clickedOther: 'cliques',
  },
  en: {
    sentThisMonth: 'E-mails delivered this month',
    sentTotal: '{count} since the start',
    openRate: 'Open rate',
    clickRate: 'Click rate',
    rateWindow: 'over the e-mails delivered since {date} ({count})',
    rateNone: 'no e-mails delivered yet',
    chartTitle: 'Your latest campaigns',
    chartLabel: 'Chart of delivered, opens and clicks of the latest campaigns',
    chartEmpty: 'The chart appears after your first send.',
    chartTable: 'See the data as a table',
    campaign: 'Campaign',
    delivered: 'Delivered',
    opened: 'Opens',
    clicked: 'Clicks',
    loading: 'Loading the chart…',
    summary:
      'Latest campaigns ({campaigns}): {delivered} {deliveredWord}, {opened} {openedWord} and {clicked} {clickedWord}.',
    deliveredOne: 'delivered',
    deliveredOther: 'delivered',
    openedOne: 'open',
    openedOther: 'opens',
    clickedOne: 'click',
    clickedOther: 'clicks',
  },
} as const satisfies Record<Locale, Record<string, string>>;

export type HomeText = keyof (typeof TEXTS)['pt-BR'];

export function homeText(locale: Locale, key: HomeText, params: Record<string, string | number> = {}): string {
  const template: string = (TEXTS[locale] ?? TEXTS['pt-BR'])[key];
  return template.replace(/\{(\w+)\}/g, (match, name: string) => (name in params ? String(params[name]) : match));
}

export function useHomeText() {
  const { locale } = useI18n();
  return (key: HomeText, params?: Record<string, string | number>) => homeText(locale, key, params);
}
