import type { z } from 'zod';
import { AppError } from './app-error';

const TYPE_NAMES_PT_BR: Record<string, string> = {
  string: 'um texto',
  number: 'um número',
  int: 'um número inteiro',
  boolean: 'verdadeiro ou falso',
  object: 'um objeto',
  array: 'uma lista',
  null: 'nulo',
  undefined: 'um valor',
  date: 'uma data',
  bigint: 'um número inteiro',
};

/**
 * pt-BR text for the issues a shared schema left without its own message (a wrong type, a size limit…), so a
 * client never reads zod's English defaults. The schemas' own messages still win.
 */
export function ptBrIssueMessage(issue: z.core.$ZodRawIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined
        ? 'Campo obrigatório.'
        : `Tipo inválido: esperava ${TYPE_NAMES_PT_BR[issue.expected] ?? issue.expected}.`;
    case 'too_big':
      return issue.origin === 'string'
        ? `Longo demais (máximo ${issue.maximum} caracteres).`
        : issue.origin === 'array' || issue.origin === 'set'
          ? `Itens demais (máximo ${issue.maximum}).`
          : `Valor alto demais (máximo ${issue.maximum}).`;
    case 'too_small':
      return issue.origin === 'string'
        ? Number(issue.minimum) <= 1
          ? 'Não pode ficar vazio.'
          : `Curto demais (mínimo ${issue.minimum} caracteres).`
        : issue.origin === 'array' || issue.origin === 'set'
          ? `Itens de menos (mínimo ${issue.minimum}).`
          : `Valor baixo demais (mínimo ${issue.minimum}).`;
    case 'invalid_format':
      return issue.format === 'uuid' ? 'Identificador inválido.' : 'Formato inválido.';
    case 'invalid_value':
      return `Valor inválido. Use um destes: ${issue.values.map((v) => String(v)).join(', ')}.`;
    case 'unrecognized_keys':
      return unknownFieldsMessage(issue.keys);
    case 'not_multiple_of':
      return `Deve ser múltiplo de ${issue.divisor}.`;
    default:
      return 'Valor inválido.';
  }
}

/**
 * Parses untrusted input with a shared zod schema; throws a 400 AppError listing each field in pt-BR
 * (`unknown_fields` when the input carries fields the schema does not declare, else `validation_failed`).
 */
export function parseInput<T extends z.ZodType>(
  schema: T,
  input: unknown,
  /**
   * A cheaper check of the usual inputs that returns exactly the schema's output when it is sure the schema accepts
   * the input, and undefined otherwise (then the schema parses it, with its own errors): the single send's body.
   */
  fastPath?: (input: unknown) => z.infer<T> | undefined,
): z.infer<T> {
  const fast = fastPath?.(input);
  const result =
    fast !== undefined ? { success: true as const, data: fast } : schema.safeParse(input, { error: ptBrIssueMessage });
  if (result.success) {
    // PostgreSQL text cannot hold NUL: a clear 400 here instead of a failed INSERT (500) later.
    const at = nulPath(result.data, '');
    if (at !== null) {
      const message = 'O texto contém um caractere inválido (NUL, \\u0000).';
      throw new AppError('validation_failed', `${at ? `${at}: ` : ''}${message}`, { fields: [{ path: at, message }] });
    }
    return result.data;
  }
  const fields = result.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message }));
  // A field the schema does not know is never dropped in silence: the answer names every one of them.
  const unknown = result.error.issues.flatMap((issue) =>
    issue.code === 'unrecognized_keys' ? issue.keys.map((key) => [...issue.path, key].join('.')) : [],
  );
  if (unknown.length > 0) throw new AppError('unknown_fields', unknownFieldsMessage(unknown), { unknown, fields });
  const first = fields[0];
  const message = first
    ? `${first.path ? `${first.path}: ` : ''}${first.message}`
    : 'Alguns campos estão inválidos. Confira e tente de novo.';
  throw new AppError('validation_failed', message, { fields });
}

/** "Campo desconhecido: cc." / "Campos desconhecidos: cc, bcc." */
export function unknownFieldsMessage(paths: string[]): string {
  return paths.length === 1
    ? `Campo desconhecido: ${paths[0]}. Esta operação não aceita esse campo.`
    : `Campos desconhecidos: ${paths.join(', ')}. Esta operação não aceita esses campos.`;
}

/** The path of the first string (value or key) holding U+0000 in parsed input, or null. */
function nulPath(value: unknown, path: string): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path : null;
  if (value === null || typeof value !== 'object') return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = nulPath(value[i], path ? `${path}.${i}` : String(i));
      if (found !== null) return found;
    }
    return null;
  }
  for (const [key, item] of Object.entries(value)) {
    const here = path ? `${path}.${key}` : key;
    if (key.includes('\u0000')) return here;
    const found = nulPath(item, here);
    if (found !== null) return found;
  }
  return null;
}
