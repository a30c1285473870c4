import { bigserial, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { accounts } from '../accounts/accounts.db';
import { campaigns } from '../campaigns/campaigns.db';

/**
 * Something about a campaign the operator should look at: an automatic pause for bounce or complaint rates,
 * or policy (5.7.x) rejections. The sender sees the reason on the campaign (campaign_sends.paused_reason).
 */
export const campaignAlerts = pgTable(
  'campaign_alerts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    campaignId: uuid('campaign_id')
      .notNull()
      .references(() => campaigns.id, { onDelete: 'cascade' }),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['hard_bounce_rate', 'complaint_rate', 'policy_rejection'] }).notNull(),
    reason: text('reason').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    acknowledgedAt: timestamp('acknowledged_at', { withTimezone: true }),
  },
  (t) => [
    index('campaign_alerts_open_idx').on(t.acknowledgedAt, t.createdAt),
    index('campaign_alerts_campaign_idx').on(t.campaignId),
  ],
);

/** Amazon SNS subscription confirmations received on the SES webhook (confirmed only for a genuine AWS URL). */
export const snsSubscriptions = pgTable('sns_subscriptions', {
  topicArn: text('topic_arn').primaryKey(),
  subscribeUrl: text('subscribe_url').notNull(),
  status: text('status', { enum: ['pending', 'confirmed', 'failed'] })
    .notNull()
    .default('pending'),
  error: text('error'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
});
