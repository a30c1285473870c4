import { apiFetch } from '@/lib/api-client';
import type { RenderedTemplate } from './types';

/** The saved library template rendered by the server (real Liquid) for a contact of the account, or sample data. */
export const previewTemplate = (id: string, contactId?: string) =>
  apiFetch<RenderedTemplate>(`/api/templates/${encodeURIComponent(id)}/preview`, {
    body: contactId ? { contactId } : {},
  });
