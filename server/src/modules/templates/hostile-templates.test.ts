import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createApiKeyFor } from '../../../test/support/api-key';
import { type SignedInUser, signUp } from '../../../test/support/sign-in';
import { createTestApp, type TestApp } from '../../../test/support/test-app';
import { DATABASE_KINDS } from '../../../test/support/test-database';
import { accounts } from '../accounts/accounts.db';
import { campaigns } from '../campaigns/campaigns.db';
import { trustSenderAddress } from '../sender-identities/testing/trust-sender';
import { templates } from './templates.db';
import { closeUntrustedRendering } from './untrusted-render';

const NESTED = '<p>Oi</p>\n{% for i in (1..1000) %}{% for j in (1..1000) %}{{ j }}{% endfor %}{% endfor %}';
const SAVE_MESSAGE =
  'Linha 2: os laços do modelo podem repetir até 1.001.000 vezes numa mensagem; o limite é 10.000. Use menos laços um dentro do outro ou limite-os com limit: (por exemplo, {% for item in lista limit: 20 %}).';
/** The loop budget stops it (or, on a box loaded enough, liquidjs's render time limit first): a pt-BR 400 either way. */
const RENDER_MESSAGE =
  /^O modelo não pôde ser processado: (o modelo passou de 10\.000 repetições de laço numa mensagem|o processamento passou do tempo máximo)$/;
const FINE = '<p>Olá, {{ contato.nome }}</p><a href="{{ link_descadastro }}">Sair</a>';

describe.each(DATABASE_KINDS)('templates that could freeze the server, on %s', (kind) => {
  let t: TestApp;
  let owner: SignedInUser;
  beforeAll(async () => {
    t = await createTestApp(kind);
    owner = await signUp(t, { verified: true });
    await trustSenderAddress(t.database.db, owner.accountId, 'loja@exemplo.com.br');
    await t.database.db
      .update(accounts)
      .set({ defaultFromEmail: 'loja@exemplo.com.br' })
      .where(eq(accounts.id, owner.accountId));
  });
  afterAll(async () => {
    await t.close();
    await closeUntrustedRendering();
  });

  const call = (method: 'POST' | 'PATCH', url: string, payload: object) =>
    t.app.inject({ method, url, headers: owner.headers, payload });

  it('are refused when saved — library templates and campaigns, created or edited — with the line, in pt-BR', async () => {
    for (const res of [
      await call('POST', '/api/templates', { name: 'Laços', html: NESTED }),
      await call('POST', '/api/campaigns', { uuid: randomUUID(), name: 'Laços', subject: 'Oi', template: NESTED }),
    ]) {
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatchObject({ code: 'validation_failed', message: SAVE_MESSAGE });
    }
    const template = (await call('POST', '/api/templates', { name: 'Bom', html: FINE })).json();
    const campaign = (
      await call('POST', '/api/campaigns', { uuid: randomUUID(), name: 'Boa', subject: 'Oi', template: FINE })
    ).json();
    expect((await call('PATCH', `/api/templates/${template.id}`, { html: NESTED })).json().error.message).toBe(
      SAVE_MESSAGE,
    );
    expect((await call('PATCH', `/api/campaigns/${campaign.id}`, { template: NESTED })).json().error.message).toBe(
      SAVE_MESSAGE,
    );
  });

  it('saved before the check, they answer every on-demand render with a pt-BR 400, never a 500', async () => {
    const template = (await call('POST', '/api/templates', { name: 'Antigo', html: FINE })).json();
    await t.database.db.update(templates).set({ html: NESTED }).where(eq(templates.id, template.id));
    const campaign = (
      await call('POST', '/api/campaigns', {
        uuid: randomUUID(),
        name: 'Antiga',
        subject: 'Oi',
        template: FINE,
        fromEmail: 'loja@exemplo.com.br',
      })
    ).json();
    await t.database.db.update(campaigns).set({ template: NESTED }).where(eq(campaigns.id, campaign.id));
    const key = await createApiKeyFor(t, owner);
    for (const res of [
      await call('POST', `/api/templates/${template.id}/preview`, {}),
      await call('POST', `/api/campaigns/${campaign.id}/preview`, {}),
      await call('POST', `/api/templates/${template.id}/test-send`, { emails: [owner.email] }),
      await call('POST', `/api/campaigns/${campaign.id}/test-send`, { emails: [owner.email] }),
      await t.app.inject({
        method: 'POST',
        url: `/api/v1/templates/${template.id}/render`,
        headers: bearer(key),
        payload: {},
      }),
    ]) {
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error.message).toMatch(RENDER_MESSAGE);
    }
    expect((await t.sentMail()).filter((m) => m.subject.startsWith('[TESTE]'))).toEqual([]);
  });
});
