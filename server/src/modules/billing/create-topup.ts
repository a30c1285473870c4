import { randomInt } from 'node:crypto';
import { buildPixBrCode, formatBRL, MAX_BALANCE_MILLIS, MAX_TOPUP_MILLIS } from '@carteiro/shared';
import { and, eq, sql } from 'drizzle-orm';
import QRCode from 'qrcode';
import type { Db } from '../../db/database';
import { AppError } from '../../http/app-error';
import { ERROR_TEXT } from '../../http/error-texts';
import { notFound } from '../../http/not-found';
import { findBillingAccount } from '../accounts/account-balance';
import { topups } from './billing.db';
import type { Topup } from './credit-topup';
import { type PaymentProvider, ProviderError } from './payments/payment-provider';

const TXID_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';
/** Static BR Code: field 62-05 holds at most 25 characters. */
const TXID_LENGTH = 25;
/** Dynamic charges: the BCB Pix API wants 26 to 35 characters for a cob created with PUT /cob/{txid}. */
const CHARGE_TXID_LENGTH = 32;

export interface PixReceiver {
  key: string;
  merchantName: string;
  merchantCity: string;
}

export interface TopupRules {
  minMillis: number;
  expiryMinutes: number;
}

/** 25 (static) or 32 (dynamic charge) random letters and digits: the txid the payer's bank echoes back. */
export function generateTxid(length = TXID_LENGTH): string {
  let txid = '';
  for (let i = 0; i < length; i++) txid += TXID_ALPHABET[randomInt(TXID_ALPHABET.length)];
  return txid;
}

/** The BR Code as an SVG QR code in a data URL, generated locally (no third-party service sees the payload). */
export async function brCodeQrSvgDataUrl(brCode: string): Promise<string> {
  const svg = await QRCode.toString(brCode, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
}

/**
 * Creates a pending Pix top-up with a fresh txid and an expiry. With a payment provider, a dynamic charge is
 * created there first (its "copia e cola" is what the payer sees; it confirms itself by webhook or
 * reconciliation); without one, a static BR Code to the operator's key (confirmed by hand). Throws
 * validation_failed for an amount under the minimum, over the maximum or not in whole cents, and
 * service_unavailable when the provider does not answer.
 */
export async function createTopup(
  db: Db,
  input: { accountId: string; amountMillis: number; userId?: string | null; payerEmail?: string | null },
  pix: PixReceiver,
  rules: TopupRules,
  now = new Date(),
  provider: PaymentProvider | null = null,
): Promise<Topup> {
  const { amountMillis } = input;
  if (!Number.isSafeInteger(amountMillis) || amountMillis < rules.minMillis) {
    throw new AppError('validation_failed', `O valor mínimo de recarga é ${formatBRL(rules.minMillis)}.`);
  }
  if (amountMillis > MAX_TOPUP_MILLIS) {
    throw new AppError('validation_failed', `O valor máximo de uma recarga é ${formatBRL(MAX_TOPUP_MILLIS)}.`);
  }
  if (amountMillis % 10 !== 0) {
    throw new AppError('validation_failed', ERROR_TEXT.billing.topupWholeCents);
  }
  const account = await findBillingAccount(db, input.accountId);
  if (!account) throw notFound('account');
  // The same ceiling as an operator credit (adjust-balance.ts): refused while it is still only a charge, since a
  // paid top-up is always credited.
  if (account.balanceMillis + amountMillis > MAX_BALANCE_MILLIS) {
    throw new AppError(
      'validation_failed',
      `Com esta recarga o saldo passaria de ${formatBRL(MAX_BALANCE_MILLIS)}, o máximo que uma conta pode ter.`,
      { fields: [{ path: 'amountMillis', message: 'O saldo passaria do máximo de uma conta.' }] },
    );
  }
  const txid = generateTxid(provider ? CHARGE_TXID_LENGTH : TXID_LENGTH);
  let brCode: string;
  let providerChargeId: string | null = null;
  if (provider) {
    // The charge is created before the row: a charge whose row failed to insert is never shown, so never paid.
    try {
      const charge = await provider.createCharge({
        txid,
        amountMillis,
        expiresInSeconds: rules.expiryMinutes * 60,
        description: `Recarga de créditos Carteiro — ${formatBRL(amountMillis)}`,
        payerEmail: input.payerEmail ?? null,
      });
      brCode = charge.brCode;
      providerChargeId = charge.chargeId;
    } catch (error) {
      if (error instanceof ProviderError) {
        throw new AppError(
          'service_unavailable',
          'O provedor de pagamento não respondeu. Tente gerar a recarga de novo em instantes.',
        );
      }
      throw error;
    }
  } else {
    brCode = buildPixBrCode({ ...pix, amountMillis, txid });
  }
  const [topup] = await db
    .insert(topups)
    .values({
      accountId: input.accountId,
      amountMillis,
      txid,
      brCode,
      chargeProvider: provider ? provider.name : null,
      providerChargeId,
      createdByUserId: input.userId ?? null,
      expiresAt: new Date(now.getTime() + rules.expiryMinutes * 60_000),
    })
    .returning();
  if (!topup) throw new Error('top-up insert returned nothing');
  return topup;
}

/**
 * The account's top-up, marking it expired first when its time has passed unpaid; null when it does not exist
 * in that account.
 */
export async function findTopup(
  db: Db,
  accountId: string | null,
  topupId: string,
  now = new Date(),
): Promise<Topup | null> {
  const where = accountId ? and(eq(topups.id, topupId), eq(topups.accountId, accountId)) : eq(topups.id, topupId);
  const [topup] = await db.select().from(topups).where(where);
  if (!topup) return null;
  if (topup.status === 'pending' && topup.expiresAt.getTime() < now.getTime()) {
    const [expired] = await db
      .update(topups)
      .set({ status: 'expired' })
      .where(and(eq(topups.id, topup.id), eq(topups.status, 'pending'), sql`${topups.expiresAt} < ${now}`))
      .returning();
    return expired ?? (await db.select().from(topups).where(eq(topups.id, topupId)))[0] ?? null;
  }
  return topup;
}
