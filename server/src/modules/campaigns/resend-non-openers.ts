import type { ResendNonOpenersInput } from '@carteiro/shared';
import type { Db } from '../../db/database';
import { AppError } from '../../http/app-error';
import { ERROR_TEXT } from '../../http/error-texts';
import { type CampaignView, toCampaignView } from './campaign-view';
import { findCampaignRow, messageContentOf } from './campaigns';
import { campaigns } from './campaigns.db';

/**
 * "Reenviar para quem não abriu": a new draft with the sent campaign's content (and a new subject when given)
 * whose audience is the original's delivered recipients without a human open (machine opens — Apple MPP,
 * scanners — do not count as opens). The audience is resolved when it is sent (contacts.audienceQuery), so
 * someone who opens the original before the follow-up goes out is left out, and unsubscribes and suppressions
 * are respected as for any campaign. It is an ordinary draft: cost preview, schedule, send.
 */
export async function resendToNonOpeners(
  db: Db,
  accountId: string,
  id: string,
  input: ResendNonOpenersInput,
): Promise<CampaignView> {
  const original = await findCampaignRow(db, accountId, id);
  if (original.status !== 'sent') {
    throw new AppError('conflict', ERROR_TEXT.campaigns.resendOnlyAfterSent);
  }
  const [row] = await db
    .insert(campaigns)
    .values({
      uuid: crypto.randomUUID(),
      createdBy: accountId,
      name: (input.name ?? `Reenvio para quem não abriu: ${original.name}`).slice(0, 200),
      subject: input.subject ?? original.subject,
      ...messageContentOf(original),
      excludeListIds: original.excludeListIds,
      resendOfCampaignId: original.id,
      status: 'draft',
    })
    .returning();
  if (!row) throw new Error('campaign insert returned nothing');
  return toCampaignView(row);
}
