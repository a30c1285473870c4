import {
  accountUpdateSchema,
  apiKeyCreateSchema,
  automationTriggerSchema,
  campaignScheduleSchema,
  contactCreateSchema,
  listCreateSchema,
  segmentCreateSchema,
  senderDomainCreateSchema,
  templateVariablesSchema,
  webhookEndpointCreateSchema,
} from '@carteiro/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import '@/lib/i18n/app-messages';
import { emailField, fieldErrors, firstIssueText, issueText, passwordField, submitParsed } from '@/lib/form-fields';
import { loadLocale } from '@/lib/i18n';

beforeAll(() => loadLocale('en'));

const first = (schema: z.ZodType, input: unknown, locale: 'pt-BR' | 'en') => {
  const parsed = schema.safeParse(input);
  if (parsed.success) throw new Error('esperava uma recusa');
  return firstIssueText(parsed.error, locale);
};

describe('issueText: a zod issue in the current locale', () => {
  it("shows a shared schema's message in English for en and as the server answers it for pt-BR", () => {
    const cases: Array<[z.ZodType, unknown, string, string]> = [
      [apiKeyCreateSchema, { name: '' }, 'Informe um nome para a chave.', 'Enter a name for the key.'],
      [listCreateSchema, { name: ' ' }, 'Informe o nome da lista.', 'Enter the list name.'],
      [accountUpdateSchema, { timeZone: 'Marte/Olympus' }, 'Fuso horário inválido.', 'Invalid time zone.'],
      [
        webhookEndpointCreateSchema,
        { url: 'ftp://x', eventTypes: ['message.opened'] },
        'Informe uma URL http:// ou https:// válida.',
        'Enter a valid http:// or https:// URL.',
      ],
      [
        segmentCreateSchema,
        { name: '', conditions: { match: 'all', conditions: [] } },
        'Informe o nome do segmento.',
        'Enter the segment name.',
      ],
      [campaignScheduleSchema, { scheduledAt: 'amanhã' }, 'Data e hora inválidas.', 'Invalid date and time.'],
      [automationTriggerSchema, { type: 'list_joined', listId: 'x' }, 'Escolha a lista.', 'Choose the list.'],
      [
        contactCreateSchema,
        { email: 'ana@', legalBasis: 'consent' },
        'E-mail inválido: falta o domínio depois do @ (ex.: gmail.com).',
        'Invalid e-mail: the domain after the @ is missing (e.g. gmail.com).',
      ],
      [templateVariablesSchema, ['pedido', 'pedido'], 'Variável repetida: pedido.', 'Repeated variable: pedido.'],
    ];
    for (const [schema, input, pt, en] of cases) {
      expect(first(schema, input, 'pt-BR')).toBe(pt);
      expect(first(schema, input, 'en')).toBe(en);
    }
  });

  it('fills the data of a templated message into the English text', () => {
    const www = { domain: 'www.loja.com.br' };
    expect(first(senderDomainCreateSchema, www, 'pt-BR')).toBe(
      'Use o domínio sem "www.": loja.com.br (os e-mails sairão de endereços como contato@loja.com.br).',
    );
    expect(first(senderDomainCreateSchema, www, 'en')).toBe(
      'Use the domain without "www.": loja.com.br (e-mails will leave from addresses like contato@loja.com.br).',
    );
    expect(issueText({ code: 'custom', path: [], message: 'Cabeçalho repetido: X-Pedido.', input: {} }, 'en')).toBe(
      'Repeated header: X-Pedido.',
    );
    expect(
      issueText({ code: 'custom', path: [], message: 'No máximo 50 variáveis por modelo.', input: {} }, 'en'),
    ).toBe('At most 50 variables per template.');
  });

  it("gives zod's own issues (no message of ours) a text per code in both locales", () => {
    const schema = z.object({ name: z.string(), code: z.string().min(3), items: z.array(z.number()).max(1) });
    const errors = (locale: 'pt-BR' | 'en') =>
      fieldErrors(schema.safeParse({ code: 'a', items: [1, 2] }).error as z.ZodError, locale);
    expect(errors('pt-BR')).toEqual({
      name: 'Preencha este campo.',
      code: 'Texto curto demais (mínimo 3 caracteres).',
      items: 'Itens demais (máximo 1).',
    });
    expect(errors('en')).toEqual({
      name: 'Fill in this field.',
      code: 'Text too short (at least 3 characters).',
      items: 'Too many items (at most 1).',
    });
    expect(first(z.object({ n: z.number() }), { n: 'x' }, 'en')).toBe('Invalid value.');
  });

  it("translates the web's own catalogue keys used as messages, with the bound", () => {
    const schema = z.object({ email: emailField, password: passwordField(12) });
    expect(fieldErrors(schema.safeParse({ email: 'x', password: 'a' }).error as z.ZodError, 'en')).toEqual({
      email: 'Enter a valid e-mail.',
      password: 'The password must have at least 12 characters.',
    });
    expect(fieldErrors(schema.safeParse({ email: 'x', password: 'a' }).error as z.ZodError, 'pt-BR')).toEqual({
      email: 'Digite um e-mail válido.',
      password: 'A senha precisa ter pelo menos 12 caracteres.',
    });
  });
});

describe('submitParsed: the one submit of a form with one error line', () => {
  it('shows the first issue (or the fallback) and never saves an input the shared schema refuses', async () => {
    const errors: Array<string | null> = [];
    const saved: unknown[] = [];
    const ok = await submitParsed(
      listCreateSchema,
      { name: '' },
      (text) => errors.push(text),
      async (value) => saved.push(value),
      'confira',
    );
    expect(ok).toBe(false);
    expect(saved).toEqual([]);
    expect(errors).toEqual([first(listCreateSchema, { name: '' }, 'pt-BR')]);
  });

  it('clears the error, saves the parsed value and resolves true', async () => {
    const errors: Array<string | null> = ['erro anterior'];
    const saved: unknown[] = [];
    const ok = await submitParsed(
      listCreateSchema,
      { name: '  Clientes  ' },
      (text) => errors.push(text),
      async (value) => saved.push(value),
    );
    expect(ok).toBe(true);
    expect(errors).toEqual(['erro anterior', null]);
    expect(saved).toEqual([listCreateSchema.parse({ name: '  Clientes  ' })]);
  });

  it("shows a failed save's text and resolves false", async () => {
    const errors: Array<string | null> = [];
    const ok = await submitParsed(
      listCreateSchema,
      { name: 'Clientes' },
      (text) => errors.push(text),
      async () => {
        throw new Error('A lista já existe.');
      },
    );
    expect(ok).toBe(false);
    expect(errors).toEqual([null, 'A lista já existe.']);
  });
});
