import { z } from 'zod';
import { normaliseEmail } from '../email';
import { validationText } from '../validation-texts';

/** Sender identities: verified From addresses and sender domains with DKIM. */

export const senderAddressCreateSchema = z.object({
  email: z
    .string({ error: validationText('senderEmailRequired') })
    .trim()
    .transform((value, ctx) => {
      const email = normaliseEmail(value);
      if (!email) {
        ctx.addIssue({ code: 'custom', message: validationText('emailInvalid') });
        return z.NEVER;
      }
      return email;
    }),
});
export type SenderAddressCreateInput = z.infer<typeof senderAddressCreateSchema>;

const DOMAIN_RE = /^(?=.{4,253}$)(?:(?!-)[a-z0-9-]{1,63}(?<!-)\.)+(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;

export const senderDomainCreateSchema = z.object({
  domain: z
    .string({ error: validationText('domainRequired') })
    .trim()
    .toLowerCase()
    .transform((v) =>
      v
        .replace(/^https?:\/\//, '')
        .replace(/\/.*$/, '')
        .replace(/\.$/, ''),
    )
    .refine((v) => DOMAIN_RE.test(v), validationText('domainInvalid'))
    // A pasted site address ("https://www.loja.com.br/") loses its scheme and path above; "www." is the site's
    // host, not where mail comes from, so it is refused with the domain to use instead of kept silently.
    .superRefine((v, ctx) => {
      if (v.startsWith('www.') && DOMAIN_RE.test(v.slice(4))) {
        ctx.addIssue({
          code: 'custom',
          message: validationText('domainWww', { domain: v.slice(4) }),
        });
      }
    }),
});
export type SenderDomainCreateInput = z.infer<typeof senderDomainCreateSchema>;

export const senderAddressConfirmSchema = z.object({
  token: z
    .string({ error: validationText('confirmationLinkInvalid') })
    .regex(/^[A-Za-z0-9_-]{20,100}$/, validationText('confirmationLinkInvalid')),
});

export const senderDomainSuspendSchema = z.object({
  reason: z.string().trim().min(3, validationText('reasonRequired')).max(500, validationText('reasonTooLong')),
});

export type DnsRecordStatus = 'found' | 'missing' | 'wrong';

/** One DNS record the sender publishes, with the state of the last check. */
export interface SenderDnsRecord {
  kind: 'dkim' | 'dkim_ed25519' | 'spf' | 'dmarc' | 'return_path' | 'tracking';
  type: 'TXT' | 'CNAME';
  /** Full name (e.g. `c1a2b3._domainkey.loja.com.br`). */
  name: string;
  value: string;
  required: boolean;
  status: DnsRecordStatus | 'unchecked';
  /** What the last check found at that name. */
  found: string[];
  /** pt-BR explanation (merge into an existing SPF, too many look-ups, tightening DMARC…). */
  note: string | null;
  warning: string | null;
}

export type SenderDomainStatus = 'pending' | 'verified' | 'broken' | 'suspended';

export interface SenderDomainDto {
  id: string;
  domain: string;
  status: SenderDomainStatus;
  returnPathVerified: boolean;
  records: SenderDnsRecord[];
  lastCheckedAt: string | null;
  verifiedAt: string | null;
  createdAt: string;
}

export interface SenderAddressDto {
  id: string;
  email: string;
  status: 'pending' | 'confirmed';
  createdAt: string;
}

export interface SenderListDto {
  addresses: SenderAddressDto[];
  domains: SenderDomainDto[];
  /** Every From the account may use now (confirmed addresses; verified domains as `*@domain`). */
  allowed: { addresses: string[]; domains: string[] };
}

/** The alignment check of the campaign preview. */
export interface SenderAlignment {
  fromEmail: string | null;
  allowed: boolean;
  dkimAligned: boolean;
  spfAligned: boolean;
  dmarcPass: boolean;
}

export interface AdminSenderDomainRow {
  id: string;
  accountId: string;
  accountName: string;
  domain: string;
  status: SenderDomainStatus;
  lastCheckedAt: string | null;
  suspendedReason: string | null;
}
