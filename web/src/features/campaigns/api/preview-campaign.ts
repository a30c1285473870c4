import { apiFetch } from '@/lib/api-client';
import { campaignPath } from './mutation';
import type { RenderedPreview } from './types';

/** The saved campaign rendered by the server for a contact of the account, or sample data. */
export const previewCampaign = (id: string, contactId?: string) =>
  apiFetch<RenderedPreview>(campaignPath(id, '/preview'), { body: contactId ? { contactId } : {} });
