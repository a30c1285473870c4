import { ForTag, TablerowTag, type Template, TypeGuards, toValueSync } from 'liquidjs';
import { AppError } from '../../http/app-error';
import { htmlLiquid, LIQUID_ITERATION_BUDGET, textLiquid } from './liquid-engine';

/** The parts of a message that carry Liquid, named as the form names them. */
export type TemplatePart = 'subject' | 'preheader' | 'html' | 'text';

export interface TemplateProblem {
  part: TemplatePart;
  line: number;
  /** pt-BR, starting with "Linha N:" — ready to show under the field. */
  message: string;
}

const PART_LABELS: Record<TemplatePart, string> = {
  subject: 'Assunto',
  preheader: 'Pré-cabeçalho',
  html: 'HTML',
  text: 'Texto',
};

/** Variables every message has (render-message.ts buildScope). `contato` also has the account's custom fields. */
const KNOWN_PROPERTIES: Record<string, readonly string[] | null> = {
  contato: ['nome', 'email'],
  conta: ['nome', 'razao_social', 'endereco', 'cnpj', 'documento'],
  campanha: ['nome'],
  // The data of the API event that started an automation (`POST /api/v1/events`, ADR 0021): any key. Kept as the
  // automations' alias of `dados` (ADR 0035); new templates declare `dados.<nome>` instead.
  evento: null,
  link_descadastro: null,
  link_navegador: null,
};
// Properties Liquid itself answers on any value.
const BUILT_IN_PROPERTIES = new Set(['size', 'first', 'last']);

function translateLiquidError(raw: string): string {
  const message = raw.replace(/, line:\d+, col:\d+$/, '');
  let m: RegExpMatchArray | null = message.match(/^undefined filter: (.+)$/);
  if (m) return `filtro desconhecido "${m[1]}"`;
  m = message.match(/^tag (\{%.*%\}) not closed$/);
  if (m) return `a tag ${m[1]} não foi fechada (falta o {% end… %} correspondente)`;
  m = message.match(/^tag "(.+)" not found$/);
  if (m) return m[1]?.startsWith('end') ? `{% ${m[1]} %} sem a tag de abertura` : `tag desconhecida "${m[1]}"`;
  m = message.match(/^output "(.*)" not closed$/s);
  if (m) return `"{{" sem o "}}" correspondente`;
  m = message.match(/^tag "(.*)" not closed$/s);
  if (m) return `"{%" sem o "%}" correspondente`;
  m = message.match(/^illegal tag: (.+)$/);
  if (m) return `tag mal escrita: ${m[1]}`;
  if (/não é permitida/.test(message)) return message;
  return `erro de sintaxe Liquid (${message})`;
}

function lineOf(error: unknown): number {
  const token = (error as { token?: { getPosition?: () => [number, number] } }).token;
  const position = token?.getPosition?.();
  if (position) return position[0];
  const match = String((error as Error).message).match(/line:(\d+)/);
  return match ? Number(match[1]) : 1;
}

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0] as number;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const current = row[j] as number;
      row[j] = Math.min(current + 1, (row[j - 1] as number) + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1));
      previous = current;
    }
  }
  return row[b.length] as number;
}

function suggestion(name: string, candidates: string[]): string {
  const best = candidates
    .map((candidate) => ({ candidate, d: distance(name, candidate) }))
    .filter((c) => c.d <= 2)
    .sort((a, b) => a.d - b.d)[0];
  return best ? ` (você quis dizer ${best.candidate}?)` : '';
}

const ALL_NAMES = (customFields: readonly string[]): string[] =>
  Object.entries(KNOWN_PROPERTIES).flatMap(([root, props]) =>
    props === null ? [root] : [...props, ...(root === 'contato' ? customFields : [])].map((p) => `${root}.${p}`),
  );

/** The root of the per-message variables a library template declares (`{{ dados.pedido }}`, ADR 0035). */
export const DATA_ROOT = 'dados';

interface VariableProblem {
  line: number;
  name: string;
  /** Why, in pt-BR, when it is not simply an unknown name. */
  reason?: string;
}

function unknownVariables(
  parsed: Template[],
  customFields: readonly string[] | null,
  dataVariables: readonly string[] | null,
): VariableProblem[] {
  const analysis = htmlLiquid.analyzeSync(parsed, { partials: false });
  const problems: VariableProblem[] = [];
  for (const variables of Object.values(analysis.globals)) {
    for (const variable of variables) {
      const [root, property, third] = variable.segments;
      if (typeof root !== 'string') continue;
      const line = variable.location.row;
      if (root === DATA_ROOT) {
        if (dataVariables === null) {
          problems.push({
            line,
            name: variable.toString(),
            reason: `variável ${variable.toString()} indisponível aqui: dados por mensagem (dados.…) existem só em modelos da biblioteca, declarados no modelo e enviados em data pela API`,
          });
        } else if (typeof property === 'string' && !dataVariables.includes(property)) {
          // Anything below a declared variable (dados.pedido.numero, dados.itens.size) is the sender's data.
          problems.push({
            line,
            name: `${DATA_ROOT}.${property}`,
            reason: `a variável ${DATA_ROOT}.${property} não foi declarada: inclua "${property}" nas variáveis do modelo`,
          });
        }
        continue;
      }
      const known = KNOWN_PROPERTIES[root];
      let ok: boolean;
      if (known === undefined) ok = false;
      else if (known === null || property === undefined || typeof property !== 'string') ok = true;
      else if (known.includes(property) || BUILT_IN_PROPERTIES.has(property)) ok = true;
      else ok = root === 'contato' && (customFields === null || customFields.includes(property));
      if (ok && typeof third === 'string' && known !== null && !BUILT_IN_PROPERTIES.has(third)) ok = false;
      if (!ok) problems.push({ line, name: variable.toString() });
    }
  }
  return problems.sort((a, b) => a.line - b.line);
}

/**
 * What a loop over data of unknown size is assumed to repeat: a contact's custom field or an API event's list is
 * rarely longer (at render, the iteration budget stops the ones that are).
 */
export const UNKNOWN_COLLECTION_SIZE = 1_000;

function literalNumber(token: unknown): number | null {
  return TypeGuards.isNumberToken(token as never) ? Number((token as { content: number }).content) : null;
}

/** The most iterations a `for`/`tablerow` can run: a literal range's size, or the assumption, capped by `limit:`. */
function loopIterations(tag: ForTag | TablerowTag): number {
  const collection = tag.collection as unknown;
  let size = UNKNOWN_COLLECTION_SIZE;
  if (TypeGuards.isRangeToken(collection as never)) {
    const range = collection as { lhs: unknown; rhs: unknown };
    const low = literalNumber(range.lhs);
    const high = literalNumber(range.rhs);
    if (low !== null && high !== null) size = Math.max(0, Math.floor(high) - Math.ceil(low) + 1);
  }
  const hash = (tag instanceof ForTag ? tag.hash : tag.args).hash as Record<string, unknown>;
  const limit = literalNumber(hash.limit);
  return limit === null ? size : Math.min(size, Math.max(0, limit));
}

function childrenOf(template: Template): Template[] {
  const withChildren = template as Template & { children?: (partials: boolean, sync: boolean) => unknown };
  return withChildren.children ? (toValueSync(withChildren.children(false, true) as never) as Template[]) : [];
}

/** Iterations `templates` can run in one render: each loop's iterations × (1 + what its body runs). */
function loopCost(templates: Template[]): number {
  let cost = 0;
  for (const template of templates) {
    const inner = loopCost(childrenOf(template));
    cost +=
      template instanceof ForTag || template instanceof TablerowTag ? loopIterations(template) * (1 + inner) : inner;
  }
  return cost;
}

/** Where the loops of a parsed part pass the iteration budget (the construct that crosses it), with their cost. */
function firstRunawayLoop(parsed: Template[]): { line: number; cost: number } | null {
  let cost = 0;
  for (const template of parsed) {
    cost += loopCost([template]);
    if (cost > LIQUID_ITERATION_BUDGET) return { line: lineOfTemplate(template), cost };
  }
  return null;
}

function lineOfTemplate(template: Template | undefined): number {
  return template?.token?.getPosition?.()[0] ?? 1;
}

/**
 * Checks Liquid syntax and variable names of each part; returns the problems in pt-BR with their line
 * ("Linha 3: variável desconhecida contato.nomee"), empty when the template is fine. `customFields`: the
 * account's custom field names (`contato.<campo>`), or null to accept any `contato.*`. `dataVariables`: the
 * per-message variables a library template declares (`dados.<nome>`), or null where there are none (campaigns).
 */
export function validateTemplate(
  parts: Partial<Record<TemplatePart, string | null | undefined>>,
  customFields: readonly string[] | null,
  dataVariables: readonly string[] | null = null,
): TemplateProblem[] {
  const problems: TemplateProblem[] = [];
  const names = [...ALL_NAMES(customFields ?? []), ...(dataVariables ?? []).map((name) => `${DATA_ROOT}.${name}`)];
  for (const part of ['subject', 'preheader', 'html', 'text'] as const) {
    const source = parts[part];
    if (!source) continue;
    const prefix = (line: number) => (part === 'html' ? `Linha ${line}` : `${PART_LABELS[part]}, linha ${line}`);
    let parsed: Template[];
    try {
      parsed = (part === 'html' ? htmlLiquid : textLiquid).parse(source);
    } catch (error) {
      const line = lineOf(error);
      problems.push({
        part,
        line,
        message: `${prefix(line)}: ${translateLiquidError(String((error as Error).message))}`,
      });
      continue;
    }
    const runaway = firstRunawayLoop(parsed);
    if (runaway) {
      problems.push({
        part,
        line: runaway.line,
        message: `${prefix(runaway.line)}: os laços do modelo podem repetir até ${runaway.cost.toLocaleString('pt-BR')} vezes numa mensagem; o limite é ${LIQUID_ITERATION_BUDGET.toLocaleString('pt-BR')}. Use menos laços um dentro do outro ou limite-os com limit: (por exemplo, {% for item in lista limit: 20 %}).`,
      });
    }
    for (const { line, name, reason } of unknownVariables(parsed, customFields, dataVariables)) {
      problems.push({
        part,
        line,
        message: `${prefix(line)}: ${reason ?? `variável desconhecida ${name}`}${suggestion(name, names)}`,
      });
    }
  }
  return problems;
}

/** Throws 400 validation_failed (details.problems) when validateTemplate finds anything. */
export function assertValidTemplate(
  parts: Partial<Record<TemplatePart, string | null | undefined>>,
  customFields: readonly string[] | null,
  dataVariables: readonly string[] | null = null,
): void {
  const problems = validateTemplate(parts, customFields, dataVariables);
  const first = problems[0];
  if (first) {
    const more = problems.length > 1 ? ` (e mais ${problems.length - 1} problema(s))` : '';
    throw new AppError('validation_failed', `${first.message}${more}`, { problems });
  }
}

const UNSUBSCRIBE_TAG = /\{\{-?\s*link_descadastro\b/;

const HTML_COMMENT = /<!--[\s\S]*?-->/g;

/** True when the HTML outputs the recipient's unsubscribe link somewhere (a commented-out one does not count). */
export function hasUnsubscribeLink(html: string): boolean {
  return UNSUBSCRIBE_TAG.test(html.replace(HTML_COMMENT, ''));
}

/** Throws 400 validation_failed when a marketing template has no `{{ link_descadastro }}` (called at send time). */
export function assertHasUnsubscribeLink(html: string): void {
  if (!hasUnsubscribeLink(html)) {
    throw new AppError(
      'validation_failed',
      'O modelo não tem o link de descadastro. Inclua {{ link_descadastro }} no rodapé (por exemplo, <a href="{{ link_descadastro }}">Descadastrar</a>): ele é obrigatório em e-mails de marketing.',
      { problems: [{ part: 'html', line: 1, message: 'Falta o link de descadastro {{ link_descadastro }}.' }] },
    );
  }
}
