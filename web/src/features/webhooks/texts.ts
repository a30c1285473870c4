import { WEBHOOK_EVENT_LABELS, type WebhookEventType } from '@carteiro/shared';
import { useI18n } from '@/lib/i18n';

/** The webhooks section's texts (pt-BR first; English for the app's English locale). */
const ptBR = {
  title: 'Webhooks',
  intro:
    'Receba no seu sistema, sem consultar a API, cada evento dos seus envios. Cada chamada é assinada conforme o padrão Standard Webhooks (cabeçalhos webhook-id, webhook-timestamp e webhook-signature).',
  add: 'Adicionar endpoint',
  empty: 'Nenhum endpoint cadastrado.',
  emptyHint:
    'Um endpoint é o endereço (URL) do seu sistema que recebe os avisos — por exemplo, para marcar um pedido quando o e-mail for entregue. Quem cuida do seu site ou loja virtual sabe qual é.',
  url: 'URL do endpoint',
  description: 'Descrição (opcional)',
  events: 'Eventos',
  save: 'Salvar',
  cancel: 'Cancelar',
  edit: 'Editar',
  remove: 'Excluir',
  removeConfirm: 'Excluir este endpoint? As entregas pendentes serão descartadas.',
  enabled: 'Ativo',
  disabled: 'Desativado',
  enable: 'Ativar',
  disable: 'Desativar',
  secret: 'Segredo de assinatura',
  reveal: 'Mostrar segredo',
  hide: 'Ocultar',
  rotate: 'Gerar novo segredo',
  rotateConfirm: 'Gerar um novo segredo? O atual continua válido por 24 horas.',
  previousSecret: 'Segredo anterior (válido até {until})',
  sendTest: 'Enviar evento de teste',
  testSent: 'Evento de teste enviado. Acompanhe no registro de entregas.',
  saved: 'Endpoint salvo.',
  log: 'Registro de entregas',
  showLog: 'Ver entregas',
  hideLog: 'Ocultar entregas',
  allStatuses: 'Todas as situações',
  allEvents: 'Todos os eventos',
  noDeliveries: 'Nenhuma entrega ainda.',
  when: 'Quando',
  event: 'Evento',
  status: 'Situação',
  http: 'HTTP',
  duration: 'Duração',
  answer: 'Resposta',
  redeliver: 'Reenviar',
  redelivered: 'Entrega colocada na fila de novo.',
  pending: 'Pendente',
  succeeded: 'Entregue',
  failed: 'Falhou',
  attempt: '1 tentativa',
  attempts: '{n} tentativas',
  pickEvent: 'Escolha pelo menos um tipo de evento.',
  testEvent: 'Evento de teste',
};

const en: typeof ptBR = {
  title: 'Webhooks',
  intro:
    'Your system learns about every event of your sends without polling the API. Each call is signed per the Standard Webhooks spec (webhook-id, webhook-timestamp and webhook-signature headers).',
  add: 'Add endpoint',
  empty: 'No endpoint yet.',
  emptyHint:
    'An endpoint is the address (URL) of your system that receives the notices — for example, to mark an order when its e-mail is delivered. Whoever runs your site or online shop knows which one.',
  url: 'Endpoint URL',
  description: 'Description (optional)',
  events: 'Events',
  save: 'Save',
  cancel: 'Cancel',
  edit: 'Edit',
  remove: 'Delete',
  removeConfirm: 'Delete this endpoint? Pending deliveries are discarded.',
  enabled: 'Enabled',
  disabled: 'Disabled',
  enable: 'Enable',
  disable: 'Disable',
  secret: 'Signing secret',
  reveal: 'Reveal secret',
  hide: 'Hide',
  rotate: 'Rotate secret',
  rotateConfirm: 'Create a new secret? The current one stays valid for 24 hours.',
  previousSecret: 'Previous secret (valid until {until})',
  sendTest: 'Send test event',
  testSent: 'Test event sent. Follow it in the delivery log.',
  saved: 'Endpoint saved.',
  log: 'Delivery log',
  showLog: 'Show deliveries',
  hideLog: 'Hide deliveries',
  allStatuses: 'All statuses',
  allEvents: 'All events',
  noDeliveries: 'No delivery yet.',
  when: 'When',
  event: 'Event',
  status: 'Status',
  http: 'HTTP',
  duration: 'Duration',
  answer: 'Answer',
  redeliver: 'Resend',
  redelivered: 'Delivery queued again.',
  pending: 'Pending',
  succeeded: 'Delivered',
  failed: 'Failed',
  attempt: '1 attempt',
  attempts: '{n} attempts',
  pickEvent: 'Pick at least one event type.',
  testEvent: 'Test event',
};

export type WebhookTexts = typeof ptBR;

export function useWebhookTexts(): WebhookTexts {
  const { locale } = useI18n();
  return locale === 'en' ? en : ptBR;
}

export function eventLabel(texts: WebhookTexts, type: string): string {
  if (type === 'webhook.test') return texts.testEvent;
  return WEBHOOK_EVENT_LABELS[type as WebhookEventType] ?? type;
}

/** "1 tentativa" / "3 tentativas": a real plural, never the "(s)" shortcut. */
export function attemptsLabel(texts: WebhookTexts, n: number): string {
  return n === 1 ? texts.attempt : texts.attempts.replace('{n}', String(n));
}

/** Both locales, for tests. */
export const WEBHOOK_TEXTS = { 'pt-BR': ptBR, en } as const;
