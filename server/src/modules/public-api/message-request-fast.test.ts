import { transactionalMessageRequestSchema } from '@carteiro/shared';
import { describe, expect, it } from 'vitest';
import { parseInput } from '../../http/validate';
import { fastMessageRequest } from './message-request-fast';

/** What the schema itself answers (the oracle): its output, or its error. */
function bySchema(body: unknown): { data: unknown } | { error: unknown } {
  try {
    return { data: parseInput(transactionalMessageRequestSchema, body) };
  } catch (error) {
    return { error };
  }
}

const base = {
  to: { email: 'cliente1@exemplo1.com.br', name: 'Cliente 1' },
  from: { email: 'pedidos@loja.exemplo.com.br', name: 'Loja Ação' },
  subject: 'Pedido {{ pedido }} recebido',
  html: '<p>Olá, {{ contato.nome }}!</p>',
  data: { pedido: '100001', valor: '149,90' },
};

/** Values each field is tried with (one field changed at a time, then random pairs). */
const VARIANTS: Record<string, unknown[]> = {
  to: [
    { email: '  Ana@Exemplo.COM.br ' },
    { email: '<ana@exemplo.com.br>', name: '  Ana  ' },
    { email: 'ana@exemplo.com.br', name: 'x'.repeat(200) },
    { email: 'ana@exemplo.com.br', name: ` ${'x'.repeat(200)} ` },
    { email: 'ana@exemplo.com.br', name: 'x'.repeat(201) },
    { email: 'ana@josé.com.br' },
    { email: 'sem-arroba' },
    { email: '' },
    { email: 42 },
    { email: 'ana@exemplo.com.br', name: null },
    { email: 'ana@exemplo.com.br', nome: 'Ana' },
    { email: 'ana@exemplo.com.br', constructor: 'x' },
    'ana@exemplo.com.br',
    null,
    [],
    undefined,
  ],
  from: [{ email: 'PEDIDOS@loja.exemplo.com.br' }, { email: 'a@b' }, {}],
  replyTo: ['atendimento@loja.com.br', ' SAC@Loja.com.br ', 'nada', 7, null, ''],
  templateId: [
    '0b7a3a52-2d5e-4d43-9a57-5d1c0f3f4b11',
    '0B7A3A52-2D5E-4D43-9A57-5D1C0F3F4B11',
    '00000000-0000-0000-0000-000000000000',
    '0b7a3a52-2d5e-0d43-9a57-5d1c0f3f4b11',
    'nao-e-uuid',
    123,
  ],
  subject: ['  Oi  ', '', '   ', 'x'.repeat(500), 'x'.repeat(501), ` ${'x'.repeat(500)} `, 5, null, undefined],
  html: ['', '<p>x</p>', 'x'.repeat(1_000_001), 3, undefined],
  text: ['Oi {{ contato.nome }}', '', 9, undefined],
  data: [{}, { contato: { nome: 'Ana' } }, { '1': 'a', b: [1, 2] }, { constructor: 'x' }, [], null, 'x', undefined],
  category: ['transactional', 'marketing', 'outra', null, undefined],
  trackOpens: [true, false, 'false', 0, undefined],
  trackClicks: [false, null],
  tags: [
    [],
    [' pedido ', 'confirmado'],
    [''],
    ['  '],
    ['x'.repeat(50)],
    ['x'.repeat(51)],
    Array.from({ length: 10 }, (_, i) => `t${i}`),
    Array.from({ length: 11 }, (_, i) => `t${i}`),
    [1],
    'pedido',
  ],
  metadata: [
    {},
    { pedido: '1234', 'a.b-c_d': 'x' },
    { 'chave inválida': 'x' },
    { ['k'.repeat(40)]: 'x' },
    { ['k'.repeat(41)]: 'x' },
    { pedido: 'v'.repeat(500) },
    { pedido: 'v'.repeat(501) },
    { pedido: 1234 },
    Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`k${i}`, 'v'])),
    Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, 'v'])),
    [],
  ],
  // Fields this path leaves to the schema, and unknown ones.
  cc: [[{ email: 'copia@exemplo.com.br' }]],
  sendAt: ['2030-01-01T00:00:00Z'],
  headers: [{ 'X-Pedido': '1' }],
  desconhecido: ['x'],
};

function variantsOf(): unknown[] {
  const bodies: unknown[] = [base, { ...base, text: 'Oi', html: undefined }, {}, null, [], 'x'];
  for (const [field, values] of Object.entries(VARIANTS)) {
    for (const value of values) {
      const body: Record<string, unknown> = { ...base, [field]: value };
      if (value === undefined) delete body[field];
      bodies.push(body);
    }
  }
  // Random pairs (a fixed seed: the same bodies every run).
  let seed = 26;
  const next = (n: number) => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed % n;
  };
  const fields = Object.keys(VARIANTS);
  for (let i = 0; i < 600; i++) {
    const body: Record<string, unknown> = { ...base };
    for (let j = 0; j < 3; j++) {
      const field = fields[next(fields.length)] as string;
      const values = VARIANTS[field] as unknown[];
      const value = values[next(values.length)];
      if (value === undefined) delete body[field];
      else body[field] = value;
    }
    bodies.push(body);
  }
  return bodies;
}

describe('fastMessageRequest: the single send body checked without zod', () => {
  it('returns the schema’s very output when it answers, and leaves every other body to the schema', () => {
    let fast = 0;
    for (const body of variantsOf()) {
      const own = fastMessageRequest(structuredClone(body));
      const oracle = bySchema(structuredClone(body));
      if (own === undefined) continue;
      fast++;
      expect('data' in oracle, `the schema refuses ${JSON.stringify(body)?.slice(0, 200)}`).toBe(true);
      if (!('data' in oracle)) continue;
      expect(own).toStrictEqual(oracle.data);
      // The same keys in the same order (what JSON.stringify of it, e.g. a stored metadata, would show).
      expect(JSON.stringify(own)).toBe(JSON.stringify(oracle.data));
    }
    // It does answer for the usual bodies (most of those above).
    expect(fast).toBeGreaterThan(80);
  });

  it('answers the usual shapes: the bench body, a template send, a text-only send', () => {
    expect(fastMessageRequest(base)).toBeDefined();
    expect(
      fastMessageRequest({
        to: { email: 'a@b.com.br' },
        from: { email: 'p@loja.com.br' },
        templateId: '0b7a3a52-2d5e-4d43-9a57-5d1c0f3f4b11',
        data: { pedido: '1' },
        tags: ['x'],
        metadata: { pedido: '1' },
        trackOpens: false,
      }),
    ).toBeDefined();
    expect(
      fastMessageRequest({ to: { email: 'a@b.com.br' }, from: { email: 'p@l.com' }, subject: 's', text: 't' }),
    ).toEqual({
      to: { email: 'a@b.com.br' },
      from: { email: 'p@l.com' },
      subject: 's',
      text: 't',
      category: 'transactional',
      trackOpens: true,
      trackClicks: true,
    });
  });

  it('a body with a NUL is still refused after the fast path (parseInput checks its output too)', () => {
    expect(() =>
      parseInput(transactionalMessageRequestSchema, { ...base, subject: 'a\u0000b' }, fastMessageRequest),
    ).toThrow(/NUL/);
  });
});
