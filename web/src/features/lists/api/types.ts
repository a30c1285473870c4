/** A mailing list as the API answers it (server ListView). */
export interface MailingList {
  id: string;
  name: string;
  description: string | null;
  optIn: 'single' | 'double';
  contactCount: number;
  subscribedCount: number;
  createdAt: string;
  updatedAt: string;
}

export const LISTS_KEY = ['lists'] as const;
