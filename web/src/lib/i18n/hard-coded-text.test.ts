import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { parseSync } from 'vite';
import { describe, expect, it } from 'vitest';
import { en } from './en';
import { ptBR as ptBRPublic } from './pt-BR';
import { ptBRApp } from './pt-BR-app';

/**
 * Every text a person reads in the web comes from the catalogues (lib/i18n/), so the `en` locale is complete.
 * This test parses the SPA's sources and lists, as file:line, the user-visible text that is written inline. The
 * parser is Vite's (oxc, `parseSync`): the TypeScript 7 package the repo uses ships no JavaScript compiler API.
 */

const ROOT = join(__dirname, '..', '..');

/**
 * Files whose literals are not interface text, with the reason. Paths are relative to web/src, '/'-separated; an
 * entry ending in '/' covers a folder.
 */
const EXEMPT: Record<string, string> = {
  'lib/i18n/': 'the catalogues themselves',
  'features/templates/components/builder-pt-br.ts':
    "GrapesJS's own pt-BR translation, handed to the editor library as its locale data",
  'features/templates/components/email-blocks.ts':
    "e-mail content placed into the sender's template (the recipient reads it, in the sender's language)",
  'lib/blank-template.ts': 'e-mail content: the starting HTML of a new template, edited by the sender',
  'lib/sample-liquid.ts': 'e-mail content: sample Liquid merge values shown inside the rendered e-mail preview',
  // Decision: the Terms of Use and the Privacy Policy are legal documents under Brazilian law; the pt-BR text is
  // the binding one and is not translated by the interface catalogue (an English reader sees the binding text).
  'features/legal/routes/terms-of-use-page.tsx': 'legal document: the pt-BR text is the binding one',
  'features/legal/routes/privacy-policy-page.tsx': 'legal document: the pt-BR text is the binding one',
};

/**
 * Files not yet moved onto the catalogue, with the number of findings they had when the detector landed. The count
 * can only go down: a file that gains a literal fails, a file that loses all of them must leave this list.
 */
const PENDING: Record<string, number> = {};

/** JSX attributes whose value a person reads or hears. */
const VISIBLE_ATTRIBUTES = new Set([
  'placeholder',
  'title',
  'aria-label',
  'aria-description',
  'aria-valuetext',
  'alt',
  'label',
  'description',
  'hint',
  'helperText',
  'emptyText',
  'emptyMessage',
  'confirmLabel',
  'cancelLabel',
  'actionLabel',
  'heading',
  'subtitle',
  'message',
  'tooltip',
]);

/** Object properties that hold a text to show (a toast's title, a tab's label…). */
const SHOWN_PROPERTIES = new Set([
  'title',
  'description',
  'label',
  'message',
  'placeholder',
  'hint',
  'success',
  'failure',
]);

/** Calls whose string argument is shown to the person: notifications, confirmations, errors shown on screen. */
const NOTIFY_CALLEES = new Set([
  'notify',
  'notifyError',
  'notifySuccess',
  'toast',
  'showToast',
  'pushToast',
  'addToast',
  'alert',
  'confirm',
  'setError',
  'setMessage',
  'setNotice',
  'success',
  'error',
  'info',
  'warning',
]);

/** pt-BR letters that English text does not use. */
const PT_LETTERS = /[ãçéáíóúêâôõàÃÇÉÁÍÓÚÊÂÔÕÀ]/;
/** Common pt-BR words: an unaccented Portuguese sentence has at least one of these. */
const PT_WORDS =
  /\b(não|nao|você|voce|seu|sua|seus|suas|para|com|uma|um|os|da|dos|das|na|nas|em|de|que|ou|ao|pelo|pela|este|esta|esse|essa|enviar|salvar|excluir|carregando|erro|agora|contato|contatos|lista|listas|modelo|campanha|saldo|remetente|conta|senha|entrar|sair|novo|nova|editar|voltar)\b/i;

function looksPortuguese(text: string): boolean {
  return PT_LETTERS.test(text) || PT_WORDS.test(text);
}

/** A literal that reads as Portuguese prose: capitalised, several words, at least one of them pt-BR. */
/** A `<style>` element: its text is CSS. */
function isStyleElement(element: Node): boolean {
  const name = ((element.openingElement as Node).name as Node).name;
  return name === 'style';
}

/** Code written as a string: a catalogue key, Liquid, CSS classes. */
function isCodeLike(text: string): boolean {
  const trimmed = text.trim();
  return (
    /^[\w-]+(\.[\w-]+)+$/.test(trimmed) ||
    trimmed.includes('{{') ||
    trimmed.split(/\s+/).every((w) => /^[a-z0-9:!/[\].-]*-[a-z0-9:!/[\].-]*$/.test(w))
  );
}

function looksLikeSentence(text: string): boolean {
  const words = text.trim().split(/\s+/);
  if (words.length < 2 || words.some((w) => /^[a-z0-9]+(-[a-z0-9]+)+$|[:[\]/=]/.test(w))) return false;
  return PT_WORDS.test(text);
}

/** Texts that read the same in every language: brand, currency sign, protocol tokens, URLs. */
const SAME_IN_EVERY_LANGUAGE =
  /^(Carteiro|R\$|R\$ 0,00|txid|· txid|OpenAPI \(JSON\)|limit=10|whsec_•+|ms —|https?:\/\/\S+)$/;

function hasLetters(text: string): boolean {
  return /\p{L}/u.test(text) && !SAME_IN_EVERY_LANGUAGE.test(text.trim());
}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')
      ? [path]
      : [];
  });
}

function exemptReason(file: string): string | undefined {
  const key = Object.keys(EXEMPT).find((entry) => (entry.endsWith('/') ? file.startsWith(entry) : file === entry));
  return key ? EXEMPT[key] : undefined;
}

type Node = { type: string; start: number; end: number; [key: string]: unknown };

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && typeof (value as Node).type === 'string';
}

function isStringLiteral(node: Node | undefined): node is Node & { value: string } {
  return node?.type === 'Literal' && typeof node.value === 'string';
}

/** The text of a string-ish expression (literal or template: its static parts), else undefined. */
function literalText(node: Node | undefined | null): string | undefined {
  if (!node) return undefined;
  if (isStringLiteral(node)) return node.value;
  if (node.type === 'TemplateLiteral') {
    return (node.quasis as Array<{ value: { cooked: string | null; raw: string } }>)
      .map((q) => q.value.cooked ?? q.value.raw)
      .join(' ');
  }
  if (node.type === 'ConditionalExpression') {
    return (
      [literalText(node.consequent as Node), literalText(node.alternate as Node)].filter(Boolean).join(' ') || undefined
    );
  }
  if (node.type === 'LogicalExpression') return literalText(node.right as Node);
  if (node.type === 'JSXExpressionContainer') return literalText(node.expression as Node);
  return undefined;
}

function calleeName(call: Node): string | undefined {
  const callee = call.callee as Node;
  if (callee.type === 'Identifier') return callee.name as string;
  if (callee.type === 'MemberExpression' && (callee.property as Node).type === 'Identifier') {
    return (callee.property as Node).name as string;
  }
  return undefined;
}

/** A literal that is code, not text: a module specifier, a type, a property key or an index. */
function isCodeOnly(node: Node, parent: Node | undefined): boolean {
  if (!parent) return false;
  return (
    /^(Import|Export).*Declaration$/.test(parent.type) ||
    parent.type === 'ImportExpression' ||
    parent.type === 'TSLiteralType' ||
    parent.type === 'TSExternalModuleReference' ||
    (parent.type === 'Property' && parent.key === node && !parent.computed) ||
    (parent.type === 'MemberExpression' && parent.property === node)
  );
}

export function findHardCodedText(fileName: string, code: string): Array<{ line: number; text: string }> {
  const { program, errors } = parseSync(fileName, code, { lang: fileName.endsWith('.tsx') ? 'tsx' : 'ts' });
  if (errors.length > 0) throw new Error(`${fileName}: ${errors[0]?.message}`);
  const found: Array<{ line: number; text: string }> = [];
  const report = (node: Node, text: string) => {
    const line = code.slice(0, node.start).split('\n').length;
    found.push({ line, text: text.replace(/\s+/g, ' ').trim() });
  };
  const visit = (node: Node, parent: Node | undefined): void => {
    if (node.type === 'JSXText') {
      if (hasLetters(node.value as string)) report(node, node.value as string);
      return;
    }
    if (
      node.type === 'JSXExpressionContainer' &&
      (parent?.type === 'JSXFragment' || (parent?.type === 'JSXElement' && !isStyleElement(parent))) &&
      literalText(node.expression as Node)
    ) {
      // A child `{cond ? 'opcional' : 'recomendado'}`: rendered as text whatever its language.
      const text = literalText(node.expression as Node) ?? '';
      if (hasLetters(text) && !isCodeLike(text)) {
        report(node, text);
        return;
      }
    }
    if (node.type === 'JSXAttribute') {
      const nameNode = node.name as Node;
      const name = nameNode.type === 'JSXIdentifier' ? (nameNode.name as string) : '';
      const text = literalText(node.value as Node | null);
      if (VISIBLE_ATTRIBUTES.has(name) && text && hasLetters(text)) {
        report(node, text);
        return;
      }
    } else if (node.type === 'CallExpression' || node.type === 'NewExpression') {
      const name = calleeName(node);
      const first = literalText((node.arguments as Node[])[0]);
      const shown = name && NOTIFY_CALLEES.has(name) && first && hasLetters(first);
      const thrown = node.type === 'NewExpression' && /Error$/.test(name ?? '') && first && looksPortuguese(first);
      if (first && (shown || thrown)) {
        report(node, first);
        for (const arg of (node.arguments as Node[]).slice(1)) visit(arg, node);
        return;
      }
    } else if (
      node.type === 'Property' &&
      SHOWN_PROPERTIES.has(((node.key as Node).name ?? (node.key as Node).value) as string) &&
      hasLetters(literalText(node.value as Node) ?? '') &&
      !isCodeLike(literalText(node.value as Node) ?? '')
    ) {
      report(node, literalText(node.value as Node) ?? '');
      return;
    } else if ((isStringLiteral(node) || node.type === 'TemplateLiteral') && !isCodeOnly(node, parent)) {
      // Any other literal written in Portuguese: a message returned, stored or passed on to be shown.
      const text = literalText(node);
      if (text && (PT_LETTERS.test(text) || looksLikeSentence(text)) && !isCodeLike(text)) {
        report(node, text);
        return;
      }
    }
    for (const value of Object.values(node)) {
      if (Array.isArray(value)) {
        for (const child of value) if (isNode(child)) visit(child, node);
      } else if (isNode(value)) {
        visit(value, node);
      }
    }
  };
  visit(program as unknown as Node, undefined);
  return found;
}

function scan(): Map<string, string[]> {
  const byFile = new Map<string, string[]>();
  for (const path of sources(ROOT)) {
    const file = relative(ROOT, path).split(sep).join('/');
    if (exemptReason(file)) continue;
    const findings = findHardCodedText(file, readFileSync(path, 'utf8'));
    if (findings.length > 0)
      byFile.set(
        file,
        findings.map((f) => `${file}:${f.line}: ${f.text}`),
      );
  }
  return byFile;
}

// Each scan parses every web source: well under a second on a quiet box, many seconds on a loaded one.
describe('hard-coded text in the web', { timeout: 60_000 }, () => {
  it('every user-visible text comes from the catalogue (exempt and pending files listed above)', () => {
    const offenders: string[] = [];
    for (const [file, findings] of scan()) {
      const allowed = PENDING[file] ?? 0;
      if (findings.length > allowed) offenders.push(...findings);
    }
    expect(offenders).toEqual([]);
  });

  it('the pending list only shrinks: each entry still has findings, and not fewer than listed', () => {
    const found = scan();
    const stale = Object.entries(PENDING)
      .filter(([file, count]) => (found.get(file)?.length ?? 0) < count)
      .map(([file, count]) => `${file}: listed ${count}, found ${found.get(file)?.length ?? 0} — lower the entry`);
    expect(stale).toEqual([]);
  });

  it('every exempt entry exists and says why', () => {
    const files = sources(ROOT).map((path) => relative(ROOT, path).split(sep).join('/'));
    for (const [entry, reason] of Object.entries(EXEMPT)) {
      expect(reason.length, entry).toBeGreaterThan(10);
      expect(
        files.some((f) => (entry.endsWith('/') ? f.startsWith(entry) : f === entry)),
        entry,
      ).toBe(true);
    }
  });

  it('the detector flags JSX text, visible attributes, notifications and pt-BR literals, not code', () => {
    const code = [
      'const a = <p>Enviar agora</p>;',
      'const b = <input placeholder="Buscar contatos" className="w-full" />;',
      "notify.error('Falhou');",
      "function m() { return 'Não foi possível salvar.'; }",
      "throw new Error('Conta sem saldo');",
      "const ok = <p>{t('common.cancel')}</p>;",
      "import x from './não-é-texto';",
      'const c = <div className="flex gap-2" data-testid="lista" />;',
      "throw new Error('useX must be used inside a provider');",
      "toast({ title: 'Salvo', variant: 'success' });",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: source text handed to the detector, not a template
      'const when = `verificado em ${date}`;',
      "const tones = { success: 'bg-emerald-100 text-emerald-800', label: 'senders.domainStatus.verified' };",
      "const d = <span>{required ? 'opcional' : t('x.y')}</span>;",
    ].join('\n');
    expect(findHardCodedText('sample.tsx', code).map((f) => f.line)).toEqual([1, 2, 3, 4, 5, 10, 11, 13]);
  });
});

/** Words that are the same in both languages (names, brands, technical terms). */
const SAME_IN_BOTH = new Set(['Carteiro', 'Pix', 'API', 'HTML', 'CSV', 'DKIM', 'SPF', 'DMARC', 'Liquid', 'Webhook']);

describe('the en catalogue is English', () => {
  it('no en value equals its pt-BR value when that value is Portuguese', () => {
    const ptBR: Record<string, string> = { ...ptBRPublic, ...ptBRApp };
    const untranslated = Object.entries(en)
      .filter(([key, value]) => value === ptBR[key] && looksPortuguese(value) && !SAME_IN_BOTH.has(value))
      .map(([key, value]) => `${key}: ${value}`);
    expect(untranslated).toEqual([]);
  });

  it('no en value has pt-BR letters, except proper names', () => {
    const names = /São Paulo|Brasília|Ltda|CNPJ|Receita Federal/g;
    const accented = Object.entries(en)
      .filter(([, value]) => PT_LETTERS.test(value.replace(names, '')))
      .map(([key, value]) => `${key}: ${value}`);
    expect(accented).toEqual([]);
  });
});
