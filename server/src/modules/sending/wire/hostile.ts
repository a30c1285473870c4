/**
 * fast-check arbitraries of hostile e-mail content for the wire-conformance suite: lines of only dots, trailing
 * spaces and tabs, very long words, mixed CR/LF/CRLF, NUL and other controls, Windows-1252 leftovers, pt-BR
 * accents and emoji, quoted-printable and encoded-word look-alikes, HTML. Never `{` or `}` (the pieces go into
 * Liquid sources, which must stay valid).
 */
import fc from 'fast-check';

const PIECES = [
  '.',
  '..',
  '...',
  '\n.\n',
  '\r\n.\r\n',
  '\n..\n',
  '.\r\n', // dot lines (SMTP transparency)
  ' ',
  '\t',
  '  \t',
  ' \n',
  '\t\r\n',
  ' \r\n',
  '   ', // trailing whitespace
  '\r',
  '\n',
  '\r\n',
  '\n\r',
  '\r\r\n', // mixed line breaks
  '\u0000',
  '\u0001',
  '\u000b',
  '\u000c',
  '\u001b',
  '\u001f',
  '\u007f', // controls
  '\u0080',
  '\u0081',
  '\u0093aspas\u0094',
  '\u0096',
  '\u009d',
  '\u009f',
  'Ã£o',
  'â€™',
  'Ã©', // Windows-1252 leftovers
  'ação',
  'Pão Quente',
  'É',
  'ü',
  '€',
  '😀',
  '🇧🇷',
  '\u00a0',
  '\u2028', // non-ASCII
  '=',
  '=3D',
  '=\r\n',
  '=?utf-8?q?x?=',
  '?=',
  '"',
  "'",
  '\\',
  '<',
  '>',
  '&amp;', // QP / encoded-word / quoting
  '<p>',
  '</p>',
  '<br>',
  '<b>negrito</b>',
  '<a href="https://loja.com.br/?a=1&b=2">oferta</a>',
  '<!-- c -->',
  'From ',
  'Subject: x',
  'olá',
  'promoção',
  'a',
  'b c',
  '30%',
  ':',
  ';',
];

/** One hostile piece: a fixed tricky string, a very long word, or a run of plain text. */
export const piece = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...PIECES) },
  { weight: 1, arbitrary: fc.integer({ min: 70, max: 1200 }).map((n) => 'x'.repeat(n)) },
  { weight: 1, arbitrary: fc.integer({ min: 20, max: 400 }).map((n) => 'palavra '.repeat(n)) },
  { weight: 2, arbitrary: fc.string({ maxLength: 20 }).map((s) => s.replace(/[{}]/g, '')) },
  {
    weight: 1,
    arbitrary: fc.string({ unit: 'binary', maxLength: 12 }).map((s) => s.replace(/[{}]/g, '')),
  },
);

/** A hostile text of up to `max` pieces. */
export const hostileText = (max = 12) => fc.array(piece, { maxLength: max }).map((parts) => parts.join(''));

/** Merge tags the sources use (the scope's contato/conta/link variables). */
const TAGS = [
  '{{ contato.nome }}',
  '{{ contato.nome | default: "cliente" }}',
  '{{ contato.cidade | default: "sua cidade" }}',
  '{{ contato.obs }}',
  '{{ contato.email }}',
  '{{ conta.nome }}',
  '{{ link_descadastro }}',
  '{% if contato.cidade %}em {{ contato.cidade }}{% endif %}',
];

/** A Liquid source: hostile pieces and merge tags. */
export const hostileSource = (max = 16) =>
  fc
    .array(fc.oneof({ weight: 3, arbitrary: piece }, { weight: 1, arbitrary: fc.constantFrom(...TAGS) }), {
      maxLength: max,
    })
    .map((parts) => parts.join(''));

/** An HTML document around a hostile body (builder-like: doctype, head, style, table). */
export const hostileHtml = fc.tuple(hostileSource(24), fc.boolean(), fc.boolean()).map(([body, wrap, crlf]) => {
  const nl = crlf ? '\r\n' : '\n';
  return wrap
    ? `<!doctype html>${nl}<html><head><meta charset="utf-8"><style>${nl}  p { margin: 0 }  ${nl}</style></head>${nl}<body><table><tr><td>${nl}${body}${nl}</td></tr></table></body></html>${nl}`
    : body;
});

/** A contact with hostile name and fields. */
export const hostileContact = fc.record({
  name: fc.option(hostileText(6), { nil: null }),
  cidade: fc.option(hostileText(4), { nil: undefined }),
  obs: fc.option(hostileText(10), { nil: undefined }),
});
