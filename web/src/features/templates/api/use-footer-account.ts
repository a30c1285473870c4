import type { FooterAccount } from '@carteiro/shared';
import { useSession } from '@/lib/use-session';

/** The session's account as the footer shows it (the editor's locked footer, the gallery's thumbnails). */
export function useFooterAccount(): FooterAccount | null {
  const account = useSession().data?.account;
  if (!account) return null;
  return {
    name: account.name,
    legalName: account.legalName ?? null,
    taxId: account.taxId ?? null,
    address: account.address ?? null,
  };
}
