/**
 * The pt-BR word for a count: "1 destinatário", "2 destinatários", "0 destinatários" (as people write it; CLDR's
 * pt rule would say "0 destinatário"). Never "destinatário(s)".
 */
export function plural(count: number, one: string, other: string): string {
  return Math.abs(count) === 1 ? one : other;
}
