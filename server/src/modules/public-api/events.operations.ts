import { automationEventSchema } from '@carteiro/shared';
import { z } from 'zod';
import { recordAutomationEvent } from '../automations/enroll';
import { defineOperation } from './operation';
import type { OperationGroup } from './public-api.routes';

const eventResultSchema = z
  .object({
    enrolled: z.number().int(),
    automationIds: z.array(z.uuid()),
  })
  .meta({ id: 'EventResult' });

/**
 * Events of the automations: an integration tells that a contact did something; every active
 * automation of the account listening for that name starts for the contact (once per contact and automation).
 * Allowed to send-only keys: it is how a shop's back-end triggers messages.
 */
export const eventsOperations: OperationGroup = ({ db }) => [
  defineOperation({
    method: 'POST',
    path: '/events',
    operationId: 'trackEvent',
    summary: 'Registrar evento (automações)',
    description:
      'O contato (pelo e-mail) fez algo — `name` é o nome do evento, como `pedido_pago`. Cada automação ativa com ' +
      'o gatilho "Evento da API" e esse nome começa para o contato — uma vez por contato, ou a cada evento diferente ' +
      'quando a automação tem uma chave do evento (`data.<chave>`, como o número do pedido). `data` fica disponível nos ' +
      'modelos dos passos como `{{ dados.<chave> }}` (declare a chave nas variáveis do modelo; `{{ evento.<chave> }}`, ' +
      'o nome antigo, continua valendo). Aqui `data` não é conferido com o modelo: uma variável que o evento não traz ' +
      'fica vazia. O contato precisa existir na conta (404 caso contrário); um contato descadastrado não entra em ' +
      'nenhuma automação.',
    tags: ['Eventos'],
    sendOnly: true,
    body: automationEventSchema,
    success: {
      status: 202,
      description: 'Quantas automações o contato começou e quais.',
      schema: eventResultSchema,
    },
    errors: ['not_found'],
    example: { body: { email: 'base@example.com', name: 'pedido_pago', data: { pedido: '1234' } } },
    handler: ({ key, body }) => recordAutomationEvent(db, key.accountId, body),
  }),
];
