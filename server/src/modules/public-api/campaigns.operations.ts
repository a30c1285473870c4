import { campaignCreateSchema, campaignScheduleSchema, campaignUpdateSchema } from '@carteiro/shared';
import { z } from 'zod';
import {
  createCampaign,
  deleteCampaign,
  findCampaign,
  findCampaigns,
  scheduleCampaign,
  updateCampaign,
} from '../campaigns/campaigns';
import { campaignReport } from '../reports/reports';
import { cancelCampaign, finishCampaignIfDone, pauseCampaign, resumeCampaign } from '../sending/campaign-controls';
import { startCampaignSend } from '../sending/start-campaign-send';
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
const NOT_FOUND = 'Campanha não encontrada.';
const TAGS = ['Campanhas'];

/** Campaigns over the campaigns, sending and reports modules (the same status machine as the dashboard). */
export const campaignsOperations: OperationGroup = ({ db }) => [
  defineOperation({
    method: 'GET',
    path: '/campaigns',
    operationId: 'listCampaigns',
    summary: 'Listar campanhas',
    tags: TAGS,
    success: { status: 200, description: 'As campanhas da conta.', schema: campaignCollectionSchema },
    handler: async ({ key }) => ({ items: await findCampaigns(db, key.accountId) }),
  }),
  defineOperation({
    method: 'POST',
    path: '/campaigns',
    operationId: 'createCampaign',
    summary: 'Criar campanha (rascunho)',
    description: '`uuid` é gerado por você (identifica a campanha de forma única).',
    tags: TAGS,
    body: campaignCreateSchema,
    success: { status: 201, description: 'A campanha criada, em rascunho.', schema: campaignSchema },
    example: {
      body: { uuid: '2b7e1c9a-4f5d-4c3b-9a1e-7d6f5e4c3b2a', name: 'Promoção de novembro', subject: 'Só esta semana' },
    },
    handler: ({ key, body }) => createCampaign(db, key.accountId, body),
  }),
  defineOperation({
    method: 'GET',
    path: '/campaigns/{id}',
    operationId: 'getCampaign',
    summary: 'Ver campanha',
    tags: TAGS,
    params: idParams,
    notFoundMessage: NOT_FOUND,
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
    notFoundMessage: NOT_FOUND,
    body: campaignUpdateSchema,
    success: { status: 200, description: 'A campanha alterada.', schema: campaignSchema },
    example: { body: { subject: 'Últimos dias!' } },
    handler: ({ key, params, body }) => updateCampaign(db, key.accountId, params.id, body),
  }),
  defineOperation({
    method: 'DELETE',
    path: '/campaigns/{id}',
    operationId: 'deleteCampaign',
    summary: 'Excluir campanha',
    tags: TAGS,
    params: idParams,
    notFoundMessage: NOT_FOUND,
    success: { status: 204, description: 'Excluída.' },
    handler: ({ key, params }) => deleteCampaign(db, key.accountId, params.id),
  }),
  defineOperation({
    method: 'POST',
    path: '/campaigns/{id}/schedule',
    operationId: 'scheduleCampaign',
    summary: 'Agendar campanha',
    tags: TAGS,
    params: idParams,
    notFoundMessage: NOT_FOUND,
    body: campaignScheduleSchema,
    success: { status: 200, description: 'A campanha agendada.', schema: campaignSchema },
    example: { body: { scheduledAt: '2030-01-15T09:00:00-03:00' } },
    handler: ({ key, params, body }) => scheduleCampaign(db, key.accountId, params.id, body.scheduledAt),
  }),
  defineOperation({
    method: 'POST',
    path: '/campaigns/{id}/send',
    operationId: 'sendCampaign',
    summary: 'Enviar campanha agora',
    description:
      'Reserva destinatários × preço no saldo e começa o envio. Saldo curto: 409 com o valor que falta, em português.',
    tags: TAGS,
    params: idParams,
    notFoundMessage: NOT_FOUND,
    success: { status: 200, description: 'O envio começou.', schema: campaignStartedSchema },
    handler: ({ key, params }) => startCampaignSend(db, key.accountId, params.id, null),
  }),
  defineOperation({
    method: 'POST',
    path: '/campaigns/{id}/pause',
    operationId: 'pauseCampaign',
    summary: 'Pausar campanha',
    tags: TAGS,
    params: idParams,
    notFoundMessage: NOT_FOUND,
    success: { status: 200, description: 'Pausada.', schema: campaignStatusSchema },
    handler: ({ key, params }) => pauseCampaign(db, key.accountId, params.id),
  }),
  defineOperation({
    method: 'POST',
    path: '/campaigns/{id}/resume',
    operationId: 'resumeCampaign',
    summary: 'Retomar campanha',
    tags: TAGS,
    params: idParams,
    notFoundMessage: NOT_FOUND,
    success: { status: 200, description: 'Em envio de novo.', schema: campaignStatusSchema },
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
    notFoundMessage: NOT_FOUND,
    success: { status: 200, description: 'Cancelada.', schema: campaignStatusSchema },
    handler: ({ key, params }) => cancelCampaign(db, key.accountId, params.id, (id) => finishCampaignIfDone(db, id)),
  }),
  defineOperation({
    method: 'GET',
    path: '/campaigns/{id}/report',
    operationId: 'getCampaignReport',
    summary: 'Relatório da campanha',
    tags: TAGS,
    params: idParams,
    notFoundMessage: NOT_FOUND,
    success: {
      status: 200,
      description: 'Entregas, aberturas, cliques, descadastros e devoluções.',
      schema: campaignReportSchema,
    },
    handler: ({ key, params }) => campaignReport(db, key.accountId, params.id),
  }),
];
