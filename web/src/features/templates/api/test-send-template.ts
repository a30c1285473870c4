import { apiFetch } from '@/lib/api-client';

/** Sends the saved library template, "[TESTE]" in the subject, to up to 5 addresses (lands in /dev/mailbox in dev). */
export const testSendTemplate = (id: string, emails: string[], contactId?: string) =>
  apiFetch<{ sent: number }>(`/api/templates/${encodeURIComponent(id)}/test-send`, {
    body: { emails, ...(contactId ? { contactId } : {}) },
  });
