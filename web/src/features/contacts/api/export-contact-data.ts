/** URL of the LGPD export (everything held about one contact, JSON). */
export function exportContactDataUrl(id: string): string {
  return `/api/contacts/${encodeURIComponent(id)}/export`;
}
