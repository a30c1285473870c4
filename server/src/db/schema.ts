/**
 * Every table of every module, gathered for Drizzle (queries with relations) and drizzle-kit (migrations).
 * Each module owns its tables in its own `*.db.ts`; only that module queries them.
 */

export * from '../modules/accounts/accounts.db';
export * from '../modules/auth/auth.db';
export * from '../modules/automations/automations.db';
export * from '../modules/billing/billing.db';
export * from '../modules/bounces/bounces.db';
export * from '../modules/campaigns/campaign-sends.db';
export * from '../modules/campaigns/campaigns.db';
export * from '../modules/contacts/contacts.db';
export * from '../modules/dev-mailbox/dev-mailbox.db';
export * from '../modules/imports/imports.db';
export * from '../modules/lists/lists.db';
export * from '../modules/message-files/message-files.db';
export * from '../modules/privacy-requests/privacy-requests.db';
export * from '../modules/public-api/api-keys.db';
export * from '../modules/rate-limits/rate-limits.db';
export * from '../modules/reports/reports.db';
export * from '../modules/segments/segments.db';
export * from '../modules/sender-identities/sender-identities.db';
export * from '../modules/sending/messages.db';
export * from '../modules/subscriptions/subscriptions.db';
export * from '../modules/templates/templates.db';
export * from '../modules/tracking/tracking.db';
export * from '../modules/transactional/transactional.db';
export * from '../modules/uploads/uploads.db';
export * from '../modules/webhooks/webhooks.db';
