import { CAMPAIGN_STATUSES, canTransition } from '@carteiro/shared';
import { describe, expect, it } from 'vitest';
import type { Db } from '../../db/database';
import { assertCampaignTransitions, transitionCampaignStatus } from './campaign-controls';

describe('the engine’s campaign status changes', () => {
  it('accept exactly the transitions of the status machine', () => {
    for (const from of CAMPAIGN_STATUSES) {
      for (const to of CAMPAIGN_STATUSES) {
        const check = () => assertCampaignTransitions([from], to);
        if (canTransition(from, to)) expect(check).not.toThrow();
        else expect(check).toThrow(`campaign status ${from} → ${to} is not an allowed transition`);
      }
    }
  });

  it('refuse a forbidden change before touching the database', async () => {
    const untouchable = new Proxy({} as Db, {
      get: () => {
        throw new Error('the database was used');
      },
    });
    await expect(transitionCampaignStatus(untouchable, 'c1', ['sending', 'sent'], 'paused')).rejects.toThrow(
      'campaign status sent → paused is not an allowed transition',
    );
  });
});
