import { type FieldType, fieldKeyFromHeader, isExportOnlyHeader, normaliseEmail } from '@carteiro/shared';
import { parse } from 'csv-parse/sync';
import { AppError } from '../../http/app-error';
import { ERROR_TEXT } from '../../http/error-texts';
import type { ImportFileInfo } from './imports.db';

const HEAD_BYTES = 64 * 1024;
const DELIMITERS = [';', ',', '\t'] as const;

export interface CsvInspection {
  info: ImportFileInfo;
  /** Data records (header excluded), counted outside quotes: a quoted newline does not start a record. */
  totalRows: number;
  /** The first data rows, as parsed. */
  preview: string[][];
  /** Suggested mapping (header → email | name | field:<key>). */
  suggestedMapping: Record<string, string>;
  /** Suggested type of the custom-field columns that are not text (header → date). */
  suggestedTypes: Record<string, FieldType>;
}

/** Counts delimiter occurrences outside quotes in one line. */
function countOutsideQuotes(line: string, delimiter: string): number {
  let inQuotes = false;
  let n = 0;
  for (const ch of line) {
    if (ch === '"') inQuotes = !inQuotes;
    else if (ch === delimiter && !inQuotes) n++;
  }
  return n;
}

/**
 * The delimiter whose count is highest and most consistent over the first lines (Excel pt-BR writes `;`
 * because `,` is the decimal separator; others write `,`; some tools write tab). One column → `,`.
 */
export function detectDelimiter(head: string): string {
  const lines = head
    .split(/\r?\n/)
    .filter((l) => l.trim() !== '')
    .slice(0, 20);
  if (lines.length > 1) lines.pop(); // the last line of a head may be cut
  let best: string = ',';
  let bestScore = 0;
  for (const d of DELIMITERS) {
    const counts = lines.map((l) => countOutsideQuotes(l, d));
    const first = counts[0] ?? 0;
    if (first === 0) continue;
    const consistent = counts.filter((c) => c === first).length;
    const score = first * consistent;
    if (score > bestScore) {
      best = d;
      bestScore = score;
    }
  }
  return best;
}

export function suggestMapping(header: string[], preview: string[][]): Record<string, string> {
  const mapping: Record<string, string> = {};
  let email = header.findIndex((h) => /^(e-?mail|email address|endere[cç]o de e-?mail|correio)$/i.test(h.trim()));
  if (email < 0) {
    // No recognisable header: the column where most preview cells are e-mail addresses.
    let bestHits = 0;
    header.forEach((_h, i) => {
      const hits = preview.filter((row) => normaliseEmail(row[i] ?? '') !== null).length;
      if (hits > bestHits) {
        bestHits = hits;
        email = i;
      }
    });
  }
  let nameTaken = false;
  header.forEach((h, i) => {
    const key = h.trim();
    if (i === email) mapping[h] = 'email';
    else if (!nameTaken && /^(nome|name|nome completo|full name)$/i.test(key)) {
      mapping[h] = 'name';
      nameTaken = true;
    } else if (isExportOnlyHeader(key)) {
      // Status, consent evidence and dates of our own export: not data to import (a round trip changes nothing).
      mapping[h] = 'ignore';
    } else mapping[h] = key ? `field:${fieldKeyFromHeader(key)}` : 'ignore';
  });
  return mapping;
}

/** How a date is written, right or wrong (`31/02/2000` is a date column's value to refuse, not text). */
const DATE_SHAPE = /^(\d{1,2}\/\d{1,2}\/\d{4}|\d{4}-\d{2}-\d{2})$/;

/** Headers that name a date ("Data de nascimento", "Aniversário", "Nascimento"). */
const DATE_HEADER = /(^|[\s_-])(data|nascimento|anivers[aá]rio|dt)([\s_-]|$)/i;

/**
 * A custom-field column is suggested as a date column (the owner can change it) when its preview cells are
 * written as dates: all of them and at least two, or most of them under a header that names a date. Numbers are
 * never guessed: a code or phone written in digits would lose its leading zeros.
 */
export function suggestTypes(
  header: string[],
  preview: string[][],
  mapping: Record<string, string>,
): Record<string, FieldType> {
  const types: Record<string, FieldType> = {};
  header.forEach((h, i) => {
    if (!mapping[h]?.startsWith('field:')) return;
    const cells = preview.map((row) => (row[i] ?? '').trim()).filter((cell) => cell !== '');
    const dates = cells.filter((cell) => DATE_SHAPE.test(cell)).length;
    const named = DATE_HEADER.test(h.normalize('NFC'));
    if ((dates === cells.length && dates >= 2) || (named && dates > 0 && dates * 2 > cells.length)) types[h] = 'date';
  });
  return types;
}

const NOT_TEXT =
  'Este arquivo não é um arquivo CSV/texto (parece uma imagem, um PDF ou outro arquivo binário). Envie a planilha salva como CSV: no Excel ou no Google Planilhas, use "Salvar como" / "Fazer download" → CSV.';
const SPREADSHEET =
  'Este arquivo é uma planilha do Excel (.xlsx/.xls), não um arquivo CSV/texto. Abra-a no Excel ou no Google Planilhas e salve como CSV ("Salvar como" → CSV UTF-8), depois envie o CSV.';

/**
 * The pt-BR reason a file's first bytes are not CSV text, or null. Binary formats are recognised by their magic
 * numbers (xlsx/zip and old .xls get their own message) and otherwise by a NUL byte or many control characters —
 * what no CSV written by a spreadsheet or a text editor contains.
 */
export function binaryFileProblem(head: Buffer): string | null {
  const starts = (...bytes: number[]) => bytes.every((b, i) => head[i] === b);
  if (starts(0x50, 0x4b, 0x03, 0x04) || starts(0xd0, 0xcf, 0x11, 0xe0)) return SPREADSHEET;
  // UTF-16 text (Excel's "Unicode text") has NULs too, but a BOM first: a text file, in an encoding we ask to change.
  if (starts(0xff, 0xfe) || starts(0xfe, 0xff)) {
    return 'Este arquivo está em UTF-16 ("Texto Unicode"). Salve a planilha como CSV UTF-8 e envie de novo.';
  }
  const sample = head.subarray(0, 8192);
  let control = 0;
  for (const b of sample) {
    if (b === 0x00) return NOT_TEXT;
    if (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d && b !== 0x0c) control++;
  }
  return sample.length > 0 && control / sample.length > 0.01 ? NOT_TEXT : null;
}

/**
 * Reads an uploaded CSV once, streaming (from `source`, the bytes as they arrive): validates UTF-8 strictly over the whole file (anything invalid means
 * Windows-1252, the other encoding pt-BR spreadsheets produce), notes a BOM, counts records outside quotes,
 * and parses the head for delimiter, header and preview. Throws a pt-BR AppError for a binary file (an image, a
 * spreadsheet not saved as CSV), an empty file or one without an e-mail column.
 */
export async function inspectCsv(source: AsyncIterable<Buffer>): Promise<CsvInspection> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let utf8 = true;
  let head = Buffer.alloc(0);
  let size = 0;
  let newlines = 0;
  let inQuotes = false;
  let lastByte = -1;
  let sawContent = false;
  for await (const chunk of source) {
    if (head.length < HEAD_BYTES) head = Buffer.concat([head, chunk.subarray(0, HEAD_BYTES - head.length)]);
    size += chunk.length;
    if (utf8) {
      try {
        decoder.decode(chunk, { stream: true });
      } catch {
        utf8 = false;
      }
    }
    for (let i = 0; i < chunk.length; i++) {
      const b = chunk[i] as number;
      if (b === 0x22) inQuotes = !inQuotes;
      else if (b === 0x0a && !inQuotes) newlines++;
      else if (!sawContent && b !== 0x0d && b !== 0x20 && b !== 0x09 && b !== 0xef && b !== 0xbb && b !== 0xbf) {
        sawContent = true;
      }
    }
    lastByte = chunk[chunk.length - 1] as number;
  }
  if (utf8) {
    try {
      decoder.decode();
    } catch {
      utf8 = false;
    }
  }
  const binary = binaryFileProblem(head);
  if (binary) throw new AppError('bad_request', binary);
  if (!sawContent) throw new AppError('bad_request', ERROR_TEXT.imports.emptyFile);
  const hasBom = head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf;
  const encoding = utf8 ? 'utf-8' : 'windows-1252';
  let headText = new TextDecoder(encoding).decode(head);
  if (size > head.length) headText = headText.slice(0, headText.lastIndexOf('\n') + 1);
  const delimiter = detectDelimiter(headText);
  const records = parse(headText, {
    delimiter,
    relax_column_count: true,
    relax_quotes: true,
    skip_empty_lines: true,
    to_line: 12,
  }) as string[][];
  const header = (records[0] ?? []).map((h) => h.trim());
  const preview = records.slice(1, 11);
  let totalRows = newlines + (lastByte !== 0x0a ? 1 : 0) - 1;
  if (totalRows < 0) totalRows = 0;
  if (header.length === 0 || totalRows === 0) {
    throw new AppError(
      'bad_request',
      'O arquivo não tem contatos: encontramos só o cabeçalho (ou nada). Confira o arquivo.',
    );
  }
  const suggestedMapping = suggestMapping(header, preview);
  if (!Object.values(suggestedMapping).includes('email')) {
    throw new AppError(
      'bad_request',
      'Não encontramos uma coluna de e-mail no arquivo. Inclua uma coluna "email" com os endereços e envie de novo.',
    );
  }
  return {
    info: { delimiter, encoding, hasBom, columns: header, sizeBytes: size },
    totalRows,
    preview,
    suggestedMapping,
    suggestedTypes: suggestTypes(header, preview, suggestedMapping),
  };
}
