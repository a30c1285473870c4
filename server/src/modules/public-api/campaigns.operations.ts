import {
  campaignCreateSchema,
  campaignQuerySchema,
  campaignScheduleSchema,
  campaignUpdateSchema,
} from '@carteiro/shared';
import { z } from 'zod';
import { NOT_FOUND_TEXT } from '../../http/not-found';
import { cancelCampaign, finishCampaignIfDone, pauseCampaign, resumeCampaign } from '../campaigns/campaign-controls';
import { createCampaign, deleteCampaign, findCampaign, scheduleCampaign, updateCampaign } from '../campaigns/campaigns';
import { findCampaignPage } from '../campaigns/find-campaign-page';
import { startCampaignSend } from '../campaigns/start-campaign-send';
import { campaignReport } from '../reports/reports';
import { defineOperation } from './operation';
import type { OperationGroup } from './public-api.routes';
import {
  campaignCollectionSchema,
  campaignReportSchema,
  campaignSchema,
  campaignStartedSchema,
  campaignStatusSchema,
} from './responses';

const idParams = z.object({ id: z.uuid() });
const TAGS = ['Campanhas'];

/** Campaigns over the campaigns, sending and reports modules (the same status machine as the dashboard). */
export const campaignsOperations: OperationGroup = ({ db }) => [
  defineOperation({
    method: 'GET',
    path: '/campaigns',
    operationId: 'listCampaigns',
    summary: 'Listar campanhas',
    description:
      'Mais novas primeiro, paginadas por cursor (`limit` até 200; passe o `nextCursor` da resposta em `cursor`). `status` filtra por uma ou várias situações separadas por vírgula (`draft,scheduled`); `search` procura no nome. Os itens não trazem o HTML: leia a campanha para vê-lo.',
    tags: TAGS,
    query: campaignQuerySchema,
    success: { status: 200, description: 'Uma página de campanhas.', schema: campaignCollectionSchema },
    example: { query: { status: 'draft,scheduled', limit: '20' } },
    errors: ['bad_request'],
    handler: ({ key, query }) => findCampaignPage(db, key.accountId, query),
  }),
  defineOperation({
    method: 'POST',
    path: '/campaigns',
    operationId: 'createCampaign',
    summary: 'Criar campanha (rascunho)',
    description:
      '`uuid` é opcional: quando você o envia (um UUID gerado do seu lado), uma segunda criação com o mesmo `uuid` é recusada com 409 `campaign_exists`; sem ele, o Carteiro gera um.',
    tags: TAGS,
    body: campaignCreateSchema,
    success: { status: 201, description: 'A campanha criada, em rascunho.', schema: campaignSchema },
    example: {
      body: { name: 'Promoção de novembro', subject: 'Só esta semana' },
    },
    errors: ['campaign_exists', 'not_found'],
    handler: ({ key, body }) => createCampaign(db, key.accountId, body),
  }),
  defineOperation({
    method: 'GET',
    path: '/campaigns/{id}',
    operationId: 'getCampaign',
    summary: 'Ver campanha',
    tags: TAGS,
    params: idParams,
    notFoundMessage: NOT_FOUND_TEXT.campaign,
    success: { status: 200, description: 'A campanha.', schema: campaignSchema },
    handler: ({ key, params }) => findCampaign(db, key.accountId, params.id),
  }),
  defineOperation({
    method: 'PATCH',
    path: '/campaigns/{id}',
    operationId: 'updateCampaign',
    summary: 'Alterar campanha',
    description: 'Só rascunhos e agendadas podem ser alteradas.',
    tags: TAGS,
    params: idParams,
    notFoundMessage: NOT_FOUND_TEXT.campaign,
    body: campaignUpdateSchema,
    success: { status: 200, description: 'A campanha alterada.', schema: campaignSchema },
    example: { body: { subject: 'Últimos dias!' } },
    errors: ['campaign_not_editable'],
    handler: ({ key, params, body }) => updateCampaign(db, key.accountId, params.id, body),
  }),
  defineOperation({
    method: 'DELETE',
    path: '/campaigns/{id}',
    operationId: 'deleteCampaign',
    summary: 'Excluir campanha',
    tags: TAGS,
    params: idParams,
    notFoundMessage: NOT_FOUND_TEXT.campaign,
    success: { status: 204, description: 'Excluída.' },
    errors: ['campaign_not_editable'],
    handler: ({ key, params }) => deleteCampaign(db, key.accountId, params.id),
  }),
  defineOperation({
    method: 'POST',
    path: '/campaigns/{id}/schedule',
    operationId: 'scheduleCampaign',
    summary: 'Agendar campanha',
    description:
      '`scheduledAt` em ISO 8601: com fuso (`2030-01-15T09:00:00-03:00` ou `…Z`) vale aquele instante; **sem fuso** (`2030-01-15T09:00`) é lido no fuso horário da conta (America/Sao_Paulo, salvo se você o mudou em Configurações). Pelo menos um minuto no futuro. Reagendar uma campanha agendada troca a data.',
    tags: TAGS,
    params: idParams,
    notFoundMessage: NOT_FOUND_TEXT.campaign,
    body: campaignScheduleSchema,
    success: { status: 200, description: 'A campanha agendada.', schema: campaignSchema },
    example: { body: { scheduledAt: '2030-01-15T09:00:00-03:00' } },
    errors: ['campaign_not_editable', 'campaign_not_ready', 'sender_not_verified'],
    handler: ({ key, params, body }) => scheduleCampaign(db, key.accountId, params.id, body.scheduledAt),
  }),
  defineOperation({
    method: 'POST',
    path: '/campaigns/{id}/send',
    operationId: 'sendCampaign',
    summary: 'Enviar campanha agora',
    description:
      'Reserva destinatários × preço no saldo e começa o envio. Saldo curto: 402 `insufficient_balance` com o valor que falta (`details.missingMillis`).',
    tags: TAGS,
    params: idParams,
    notFoundMessage: NOT_FOUND_TEXT.campaign,
    success: { status: 200, description: 'O envio começou.', schema: campaignStartedSchema },
    errors: [
      'campaign_already_sending',
      'campaign_not_ready',
      'insufficient_balance',
      'account_suspended',
      'sender_not_verified',
    ],
    handler: ({ key, params }) => startCampaignSend(db, key.accountId, params.id, null),
  }),
  defineOperation({
    method: 'POST',
    path: '/campaigns/{id}/pause',
    operationId: 'pauseCampaign',
    summary: 'Pausar campanha',
    tags: TAGS,
    params: idParams,
    notFoundMessage: NOT_FOUND_TEXT.campaign,
    success: { status: 200, description: 'Pausada.', schema: campaignStatusSchema },
    errors: ['campaign_not_editable'],
    handler: ({ key, params }) => pauseCampaign(db, key.accountId, params.id),
  }),
  defineOperation({
    method: 'POST',
    path: '/campaigns/{id}/resume',
    operationId: 'resumeCampaign',
    summary: 'Retomar campanha',
    tags: TAGS,
    params: idParams,
    notFoundMessage: NOT_FOUND_TEXT.campaign,
    success: { status: 200, description: 'Em envio de novo.', schema: campaignStatusSchema },
    errors: ['campaign_not_editable', 'account_suspended'],
    handler: ({ key, params }) => resumeCampaign(db, key.accountId, params.id),
  }),
  defineOperation({
    method: 'POST',
    path: '/campaigns/{id}/cancel',
    operationId: 'cancelCampaign',
    summary: 'Cancelar campanha',
    description: 'O que não foi enviado volta para o saldo.',
    tags: TAGS,
    params: idParams,
    notFoundMessage: NOT_FOUND_TEXT.campaign,
    success: { status: 200, description: 'Cancelada.', schema: campaignStatusSchema },
    errors: ['campaign_not_editable'],
    handler: ({ key, params }) => cancelCampaign(db, key.accountId, params.id, (id) => finishCampaignIfDone(db, id)),
  }),
  defineOperation({
    method: 'GET',
    path: '/campaigns/{id}/report',
    operationId: 'getCampaignReport',
    summary: 'Relatório da campanha',
    tags: TAGS,
    params: idParams,
    notFoundMessage: NOT_FOUND_TEXT.campaign,
    success: {
      status: 200,
      description: 'Entregas, aberturas, cliques, descadastros e devoluções.',
      schema: campaignReportSchema,
    },
    handler: ({ key, params }) => campaignReport(db, key.accountId, params.id),
  }),
];
