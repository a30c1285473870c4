import fs from 'node:fs';
import {
  API_ERROR_ADVICE_PT_BR,
  ERROR_HTTP_STATUS,
  ERROR_MESSAGES_PT_BR,
  PUBLIC_API_ERROR_CODES,
} from '@carteiro/shared';

/** Where the catalogue's table is written (between the two markers). */
export const API_ERRORS_DOC_PATH = new URL('../../../../docs/api-errors.md', import.meta.url);
const BEGIN = '<!-- tabela gerada de shared/src/api-errors.ts: npm run docs:api-errors -->';
const END = '<!-- fim da tabela gerada -->';

const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');

/** The markdown table of every public API error code: code, status, meaning (its pt-BR message), what to do. */
export function renderApiErrorsTable(): string {
  const rows = [...PUBLIC_API_ERROR_CODES]
    .sort((a, b) => ERROR_HTTP_STATUS[a] - ERROR_HTTP_STATUS[b])
    .map(
      (code) =>
        `| \`${code}\` | ${ERROR_HTTP_STATUS[code]} | ${cell(ERROR_MESSAGES_PT_BR[code])} | ${cell(API_ERROR_ADVICE_PT_BR[code])} |`,
    );
  return ['| Código | Status | O que significa | O que fazer |', '| --- | --- | --- | --- |', ...rows].join('\n');
}

/** The documentation file with its table section replaced by the current catalogue. */
export function renderApiErrorsDoc(current: string): string {
  const start = current.indexOf(BEGIN);
  const end = current.indexOf(END);
  if (start < 0 || end < start) throw new Error(`docs/api-errors.md has lost its markers (${BEGIN} … ${END})`);
  return `${current.slice(0, start + BEGIN.length)}\n${renderApiErrorsTable()}\n${current.slice(end)}`;
}

// `npm run docs:api-errors` rewrites the table.
if (process.argv[1] && new URL(`file://${process.argv[1]}`).href === import.meta.url) {
  const current = fs.readFileSync(API_ERRORS_DOC_PATH, 'utf8');
  fs.writeFileSync(API_ERRORS_DOC_PATH, renderApiErrorsDoc(current));
}
