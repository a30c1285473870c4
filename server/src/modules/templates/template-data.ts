import { AppError } from '../../http/app-error';
import { unknownFieldsMessage } from '../../http/validate';

/**
 * The per-message data of a library template (ADR 0035): a template declares the variables it takes
 * (`variables: ['pedido', 'itens']`, used as `{{ dados.pedido }}`), and a send with it gives each of them in `data`.
 * Besides the declared names, `data` may carry `contato` (the recipient's fields, `{{ contato.<campo> }}`).
 */

/** The one key of `data` that is not a per-message variable: the recipient's fields. */
const CONTACT_KEY = 'contato';

export interface TemplateDataCheck {
  /** Declared variables absent from `data`. */
  missing: string[];
  /** Keys of `data` the template does not declare (only when the template declares variables). */
  unknown: string[];
}

/**
 * Compares `data` with the declared variables. A template that declares none keeps `data` an open map (its keys
 * are merged as contact fields, as before ADR 0035), so nothing is unknown there; `null` counts as given.
 */
export function checkTemplateData(variables: readonly string[], data: Record<string, unknown>): TemplateDataCheck {
  const missing = variables.filter((name) => !Object.hasOwn(data, name));
  const unknown =
    variables.length === 0 ? [] : Object.keys(data).filter((key) => key !== CONTACT_KEY && !variables.includes(key));
  return { missing, unknown };
}

/**
 * Throws the 400 of a send whose `data` does not fit its template: `unknown_fields` naming each undeclared key
 * (`data.cupom`), else `validation_failed` naming each missing variable (`data.pedido`). `where` prefixes paths and
 * messages for one message of a batch (`messages.2.`, "Mensagem 3: ").
 */
export function assertTemplateData(
  template: { name: string; variables: readonly string[] },
  data: Record<string, unknown>,
  where: { path: string; label: string } = { path: '', label: '' },
): void {
  const { missing, unknown } = checkTemplateData(template.variables, data);
  const declared = template.variables.join(', ');
  if (unknown.length > 0) {
    const paths = unknown.map((key) => `${where.path}data.${key}`);
    throw new AppError(
      'unknown_fields',
      `${where.label}${unknownFieldsMessage(paths)} O modelo "${template.name}" declara as variáveis: ${declared} (e aceita contato).`,
      { unknown: paths, fields: paths.map((path) => ({ path, message: 'Variável não declarada no modelo.' })) },
    );
  }
  if (missing.length > 0) {
    const paths = missing.map((name) => `${where.path}data.${name}`);
    const what = missing.length === 1 ? `a variável ${missing[0]}` : `as variáveis ${missing.join(', ')}`;
    throw new AppError(
      'validation_failed',
      `${where.label}Falta ${what} em data: o modelo "${template.name}" usa ${missing.map((n) => `{{ dados.${n} }}`).join(', ')}.`,
      { fields: paths.map((path) => ({ path, message: 'Variável do modelo não informada.' })) },
    );
  }
}

/**
 * The `dados` of a message's Liquid scope: the declared variables' values for a template that declares them,
 * else every key of `data` but `contato` (inline sends and automations' event data).
 */
export function dataScope(variables: readonly string[], data: Record<string, unknown>): Record<string, unknown> {
  if (variables.length > 0) return Object.fromEntries(variables.map((name) => [name, data[name]]));
  const { [CONTACT_KEY]: _contact, ...rest } = data;
  return rest;
}

/** Sample values for a preview without data: each declared variable shows as `[nome]`. */
export function sampleData(variables: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(variables.map((name) => [name, `[${name}]`]));
}
