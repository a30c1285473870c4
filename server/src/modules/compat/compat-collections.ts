import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { memberAccounts } from '../accounts/account-directory';
import { campaignRows } from '../campaigns/campaign-directory';

/**
 * The collections the compatibility API (spec §7) knows, with the only fields it reads, filters, orders and
 * writes. Anything else is refused with a 400: this is a translation of the old client's calls, never a
 * generic door into the database.
 */
export interface CollectionSpec {
  /** Field name (spec snake_case) → column, for where/order. */
  filterable: Record<string, AnyPgColumn>;
  orderable: Record<string, AnyPgColumn>;
  /** Field names accepted in `data` on create / update (snake_case → camelCase input key). */
  creatable: Record<string, string>;
  updatable: Record<string, string>;
}

const accountWritable = {
  name: 'name',
  legal_name: 'legalName',
  tax_id: 'taxId',
  address: 'address',
  time_zone: 'timeZone',
  default_from_name: 'defaultFromName',
  default_from_email: 'defaultFromEmail',
};

const campaignWritable = {
  name: 'name',
  subject: 'subject',
  preheader: 'preheader',
  from_name: 'fromName',
  from_email: 'fromEmail',
  reply_to: 'replyTo',
  include_list_ids: 'includeListIds',
  exclude_list_ids: 'excludeListIds',
  template: 'template',
  template_project: 'templateProject',
  track_opens: 'trackOpens',
  track_clicks: 'trackClicks',
};

export const COLLECTIONS = {
  account: {
    filterable: { id: memberAccounts.id, uuid: memberAccounts.uuid, owner: memberAccounts.ownerUserId },
    orderable: {
      created_at: memberAccounts.createdAt,
      updated_at: memberAccounts.updatedAt,
      name: memberAccounts.name,
    },
    // uuid and owner on create: uuid is the client's, owner is always the signed-in user (checked).
    creatable: { uuid: 'uuid', owner: 'owner', ...accountWritable },
    updatable: accountWritable,
  },
  campaigns: {
    filterable: {
      id: campaignRows.id,
      uuid: campaignRows.uuid,
      created_by: campaignRows.createdBy,
      status: campaignRows.status,
      name: campaignRows.name,
    },
    orderable: {
      updated_at: campaignRows.updatedAt,
      created_at: campaignRows.createdAt,
      scheduled_at: campaignRows.scheduledAt,
      name: campaignRows.name,
    },
    creatable: { uuid: 'uuid', created_by: 'createdBy', ...campaignWritable },
    updatable: { created_by: 'createdBy', ...campaignWritable },
  },
} satisfies Record<string, CollectionSpec>;

export type CollectionName = keyof typeof COLLECTIONS;
