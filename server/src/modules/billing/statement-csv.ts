import { DEFAULT_TIME_ZONE, LEDGER_KIND_LABELS_PT_BR } from '@carteiro/shared';
import type { StatementLine } from './list-statement';

/** Millis as a pt-BR decimal with 3 places, no currency sign ("-12,345"), which Excel pt-BR reads as a number. */
export function millisToCsvNumber(millis: number): string {
  const sign = millis < 0 ? '-' : '';
  const abs = Math.abs(millis);
  return `${sign}${Math.floor(abs / 1000)},${String(abs % 1000).padStart(3, '0')}`;
}

/** A text cell: neutralises spreadsheet formulas (=, +, -, @, tab, CR) and quotes when needed. */
export function csvText(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[;"\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** The statement (one line per campaign, named) as a `;`-separated UTF-8 CSV with BOM (opens correctly in Excel pt-BR). */
export function statementToCsv(entries: StatementLine[], timeZone = DEFAULT_TIME_ZONE): string {
  const date = new Intl.DateTimeFormat('pt-BR', {
    timeZone,
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
  const lines = ['Data;Tipo;Descrição;Campanha;Valor (R$);Saldo (R$)'];
  for (const e of entries) {
    lines.push(
      [
        // "25/11/2026 14:03:00": Intl puts a comma between date and time, which spreadsheets read as text.
        csvText(date.format(e.createdAt).replace(', ', ' ')),
        csvText(LEDGER_KIND_LABELS_PT_BR[e.kind]),
        csvText(e.description),
        csvText(e.campaignName ?? ''),
        millisToCsvNumber(e.amountMillis),
        millisToCsvNumber(e.balanceAfterMillis),
      ].join(';'),
    );
  }
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}
