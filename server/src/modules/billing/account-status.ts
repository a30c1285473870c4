import { AppError } from '../../http/app-error';
import { notFound } from '../../http/not-found';
import { shareLockAccountStatus, type Tx } from '../accounts/account-balance';

/** The pt-BR refusal when a suspended account tries to send or resume a campaign. */
export const ACCOUNT_SUSPENDED_SEND_MESSAGE =
  'Esta conta está suspensa: nenhuma campanha pode ser enviada ou retomada. Fale com o suporte do Carteiro.';

/**
 * Throws account_suspended (403, pt-BR) unless the account is active. Takes a share lock on the account row
 * for the rest of the caller's transaction, so an operator's suspension (which locks the row FOR UPDATE) waits
 * for this transaction — then pauses what it started — or this one sees the suspension: never a campaign that
 * slips back to sending on a suspended account.
 */
export async function assertAccountCanSend(tx: Tx, accountId: string): Promise<void> {
  const status = await shareLockAccountStatus(tx, accountId);
  if (!status) throw notFound('account');
  if (status !== 'active') throw new AppError('account_suspended', ACCOUNT_SUSPENDED_SEND_MESSAGE);
}
