import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { parseSync } from 'vite';
import { describe, expect, it } from 'vitest';
import { accountUpdateSchema } from './schemas/account';
import { apiKeyCreateSchema } from './schemas/api-keys';
import { templateVariablesSchema } from './schemas/template';
import { VALIDATION_TEXTS, type ValidationKey, validationIssueKey, validationText } from './validation-texts';

type Node = { type: string; start: number; [key: string]: unknown };

// zod's checks whose string arguments are the message an issue carries.
const CHECKS = new Set([
  'min',
  'max',
  'length',
  'int',
  'positive',
  'nonnegative',
  'negative',
  'gte',
  'lte',
  'gt',
  'lt',
  'regex',
  'refine',
  'uuid',
  'email',
  'url',
  'nonempty',
  // Schema constructors whose last argument may be the message (`z.enum(values, '…')`, `z.string('…')`).
  'enum',
  'string',
  'number',
  'boolean',
  'array',
  'object',
  'record',
  'date',
  'datetime',
  'nonoptional',
]);

/** String and template literals in a message position: `{ error | message: … }` or a zod check's argument. */
export function inlineMessages(fileName: string, code: string): Array<{ line: number; text: string }> {
  const { program, errors } = parseSync(fileName, code, { lang: 'ts' });
  if (errors.length > 0) throw new Error(`${fileName}: ${errors[0]?.message}`);
  const found: Array<{ start: number; line: number; text: string }> = [];
  const textOf = (node: Node | undefined): string | null => {
    if (!node) return null;
    if (node.type === 'Literal' && typeof node.value === 'string') return node.value;
    if (node.type === 'TemplateLiteral')
      return (node.quasis as Array<{ value: { cooked: string } }>).map((q) => q.value.cooked).join('…');
    if (node.type === 'ConditionalExpression') return textOf(node.consequent as Node) ?? textOf(node.alternate as Node);
    if (node.type === 'LogicalExpression') return textOf(node.right as Node);
    return null;
  };
  const report = (node: Node | undefined) => {
    const text = textOf(node);
    if (node && text && /\p{L}/u.test(text)) {
      found.push({ start: node.start, line: code.slice(0, node.start).split('\n').length, text });
    }
  };
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) {
      for (const item of value) visit(item);
      return;
    }
    if (!value || typeof value !== 'object' || typeof (value as Node).type !== 'string') return;
    const node = value as Node;
    if (node.type === 'Property' && !node.computed) {
      const key = node.key as Node;
      const name = key.type === 'Identifier' ? key.name : key.type === 'Literal' ? key.value : null;
      if (name === 'error' || name === 'message') report(node.value as Node);
    }
    if (node.type === 'CallExpression') {
      const callee = node.callee as Node;
      const property = callee.type === 'MemberExpression' ? (callee.property as Node) : null;
      if (property?.type === 'Identifier' && CHECKS.has(property.name as string)) {
        for (const argument of node.arguments as Node[]) report(argument);
      }
    }
    for (const [key, child] of Object.entries(node)) if (key !== 'type') visit(child);
  };
  visit(program);
  return found.sort((a, b) => a.start - b.start);
}

const SERVER_SRC = join(import.meta.dirname, '../../server/src');

/** The server's files that declare zod schemas (routes, public API operations, params, settings), relative to server/src. */
function serverZodFiles(): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (
        /\.ts$/.test(entry.name) &&
        !/\.test\.ts$/.test(entry.name) &&
        /from 'zod'/.test(readFileSync(path, 'utf8'))
      )
        files.push(relative(SERVER_SRC, path).split(sep).join('/'));
    }
  };
  walk(SERVER_SRC);
  return files.sort();
}

describe('validation texts', () => {
  it('no shared schema writes a message inline: every one comes from VALIDATION_TEXTS', () => {
    const dir = join(import.meta.dirname, 'schemas');
    const offenders: string[] = [];
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))) {
      for (const { line, text } of inlineMessages(file, readFileSync(join(dir, file), 'utf8'))) {
        offenders.push(`schemas/${file}:${line} ${text}`);
      }
    }
    expect(offenders).toEqual([]);
  });

  it("no server zod schema writes a message inline: validation texts come from VALIDATION_TEXTS, the settings' from ERROR_TEXT", () => {
    const offenders = serverZodFiles().flatMap((file) =>
      inlineMessages(file, readFileSync(join(SERVER_SRC, file), 'utf8')).map(
        ({ line, text }) => `${file}:${line} ${text}`,
      ),
    );
    expect(offenders).toEqual([]);
  });

  it('the detector finds inline messages in every message position', () => {
    const code = [
      // A `$` + `{` split, so the sample is a template literal in the parsed code only.
      "z.string({ error: 'Informe o nome.' }).min(1, 'Curto.').max(9, `No máximo $" + '{n}.`);',
      "z.uuid('Modelo inválido.');",
      "ctx.addIssue({ code: 'custom', message: ok ? 'Sim.' : 'Não.' });",
      "z.string().refine((v) => v.length > 0, 'Vazio.');",
      "z.string({ error: validationText('nameRequired') }).describe('Um texto de documentação.');",
      "z.object({ type: z.enum(['asc', 'desc'], 'Use asc ou desc.'), kind: z.literal('texto') });",
      'z.string(`Informe $' + "{what}.`).startsWith('https');",
    ].join('\n');
    expect(inlineMessages('x.ts', code).map((f) => f.text)).toEqual([
      'Informe o nome.',
      'Curto.',
      'No máximo ….',
      'Modelo inválido.',
      'Sim.',
      'Vazio.',
      'Use asc ou desc.',
      'Informe ….',
    ]);
  });

  it('every key has a pt-BR text, and a filled text maps back to its key and data', () => {
    for (const key of Object.keys(VALIDATION_TEXTS) as ValidationKey[]) {
      const template: string = VALIDATION_TEXTS[key];
      expect(template.trim(), key).not.toBe('');
      const names = [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string);
      const data = Object.fromEntries(names.map((name, i) => [name, `valor ${i}`]));
      expect(validationIssueKey(validationText(key, data)), key).toEqual({ key, data });
    }
    expect(validationIssueKey('Um texto qualquer.')).toBeNull();
  });

  it("the schemas' answers are the catalogue's pt-BR texts, byte for byte", () => {
    const name = apiKeyCreateSchema.safeParse({ name: '' });
    expect(name.error?.issues[0]?.message).toBe('Informe um nome para a chave.');
    const variables = templateVariablesSchema.safeParse(['pedido', 'pedido']);
    expect(variables.error?.issues.map((i) => i.message)).toContain('Variável repetida: pedido.');
    expect(validationIssueKey('Variável repetida: pedido.')).toEqual({
      key: 'variableRepeated',
      data: { name: 'pedido' },
    });
    expect(accountUpdateSchema.safeParse({ timeZone: 'Marte/Olympus' }).error?.issues[0]?.message).toBe(
      'Fuso horário inválido.',
    );
  });
});
