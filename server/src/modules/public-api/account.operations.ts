import { formatBRL, statementQuerySchema, suppressionAddSchema, suppressionEmailSchema } from '@carteiro/shared';
import { notFound } from '../../http/not-found';
import { findBillingAccount } from '../accounts/account-balance';
import { toLedgerEntryDto } from '../billing/ledger';
import { listStatement } from '../billing/list-statement';
import {
  addManualSuppressions,
  lookupSuppression,
  removeManualSuppression,
  suppressionSummary,
} from '../contacts/suppression';
import { defineOperation } from './operation';
import type { OperationGroup } from './public-api.routes';
import {
  balanceSchema,
  statementSchema,
  suppressionAddedSchema,
  suppressionLookupSchema,
  suppressionSummarySchema,
} from './responses';

/** Balance, statement and the suppression list. Addresses travel in bodies, never in URLs (which end up in logs). */
export const accountOperations: OperationGroup = ({ db }) => [
  defineOperation({
    method: 'GET',
    path: '/balance',
    operationId: 'getBalance',
    summary: 'Saldo',
    description: 'Valores em milésimos de real (1000 = R$ 1,00).',
    tags: ['Saldo'],
    sendOnly: true,
    success: {
      status: 200,
      description: 'O saldo, o preço por e-mail e quantos e-mails ele paga.',
      schema: balanceSchema,
    },
    handler: async ({ key }) => {
      const account = await findBillingAccount(db, key.accountId);
      if (!account) throw notFound('account');
      return {
        balanceMillis: account.balanceMillis,
        priceMillis: account.priceMillis,
        emailsPaid: account.priceMillis > 0 ? Math.floor(account.balanceMillis / account.priceMillis) : 0,
        formatted: formatBRL(account.balanceMillis),
      };
    },
  }),
  defineOperation({
    method: 'GET',
    path: '/statement',
    operationId: 'getStatement',
    summary: 'Extrato',
    description: 'Lançamentos do saldo, mais novos primeiro; `from`/`to` em AAAA-MM-DD; `cursor` = `nextCursor`.',
    tags: ['Saldo'],
    query: statementQuerySchema,
    success: { status: 200, description: 'Uma página do extrato.', schema: statementSchema },
    handler: async ({ key, query }) => {
      const page = await listStatement(db, { accountId: key.accountId, ...query });
      return { entries: page.entries.map(toLedgerEntryDto), nextCursor: page.nextCursor };
    },
  }),
  defineOperation({
    method: 'GET',
    path: '/suppressions',
    operationId: 'getSuppressions',
    summary: 'Lista de supressão (contagens)',
    description:
      'A lista guarda só hashes dos endereços: a resposta traz o total de endereços e quantos têm cada motivo (um endereço pode ter mais de um). Um descadastro cobre só o fluxo de marketing; devoluções, reclamações, exclusões (LGPD) e entradas manuais cobrem todos os fluxos.',
    tags: ['Supressões'],
    success: { status: 200, description: 'Total e contagem por motivo.', schema: suppressionSummarySchema },
    handler: ({ key }) => suppressionSummary(db, key.accountId),
  }),
  defineOperation({
    method: 'POST',
    path: '/suppressions',
    operationId: 'addSuppressions',
    summary: 'Adicionar endereços à lista de supressão',
    description:
      'Entradas manuais cobrem todos os fluxos (marketing e transacional). Para parar só o marketing de um contato, descadastre-o.',
    tags: ['Supressões'],
    body: suppressionAddSchema,
    success: {
      status: 200,
      description: 'Quantos entraram, quantos já estavam e as linhas inválidas.',
      schema: suppressionAddedSchema,
    },
    example: { body: { emails: ['nao-enviar@example.com'] } },
    handler: ({ key, body }) => addManualSuppressions(db, key.accountId, body.emails),
  }),
  defineOperation({
    method: 'POST',
    path: '/suppressions/lookup',
    operationId: 'lookupSuppression',
    summary: 'Consultar um endereço',
    tags: ['Supressões'],
    sendOnly: true,
    body: suppressionEmailSchema,
    success: { status: 200, description: 'Se o endereço está suprimido e por quê.', schema: suppressionLookupSchema },
    example: { body: { email: 'nao-enviar@example.com' } },
    handler: ({ key, body }) => lookupSuppression(db, key.accountId, body.email),
  }),
  defineOperation({
    method: 'POST',
    path: '/suppressions/remove',
    operationId: 'removeSuppression',
    summary: 'Retirar um endereço adicionado à mão',
    description:
      'Só entradas manuais saem; descadastros, exclusões, devoluções e reclamações são do destinatário (409).',
    tags: ['Supressões'],
    body: suppressionEmailSchema,
    success: { status: 204, description: 'Retirado.' },
    example: { body: { email: 'nao-enviar@example.com' } },
    errors: ['not_found', 'suppression_not_manual'],
    handler: ({ key, body }) => removeManualSuppression(db, key.accountId, body.email),
  }),
];
