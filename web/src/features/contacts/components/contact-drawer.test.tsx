import { describe, expect, it } from 'vitest';
import type { ContactActivity } from '../api/get-contact-activity';
import { activityCounts } from './contact-drawer';

const event = (kind: string, machine = false): ContactActivity['events'][number] => ({
  kind,
  machine,
  bounceKind: kind === 'bounce' ? 'soft' : null,
  detail: null,
  url: kind === 'click' ? 'https://loja.example.com.br/' : null,
  campaignId: 'c1',
  campaignName: 'Promoção',
  at: '2026-11-20T12:00:00.000Z',
});

describe('activityCounts (contact history summary)', () => {
  it('counts campaigns received and the human opens and clicks, unsubscribes and bounces', () => {
    const message = (id: number, campaignId: string, status: string) => ({
      messageId: id,
      campaignId,
      campaignName: campaignId,
      status,
      sentAt: status === 'sent' ? '2026-11-20T12:00:00.000Z' : null,
    });
    expect(
      activityCounts({
        messages: [message(1, 'c1', 'sent'), message(2, 'c2', 'sent'), message(3, 'c3', 'failed')],
        events: [
          event('open'),
          event('open'),
          event('open', true),
          event('click'),
          event('click', true),
          event('unsubscribe'),
          event('bounce'),
        ],
      }),
    ).toEqual({ received: 2, opens: 2, clicks: 1, unsubscribes: 1, bounces: 1 });
  });
});
