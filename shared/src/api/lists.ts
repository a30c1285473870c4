/** Mailing list responses: the shapes the server answers and the web reads. */

export type ListOptIn = 'single' | 'double';

/** A mailing list as the API answers it. */
export interface ListView {
  id: string;
  name: string;
  description: string | null;
  optIn: ListOptIn;
  contactCount: number;
  subscribedCount: number;
  createdAt: string;
  updatedAt: string;
}

/** GET /api/lists/:id/form-snippet: the list's hosted pt-BR subscribe page and its embeddable HTML form. */
export interface FormSnippet {
  listId: string;
  hostedUrl: string;
  optIn: ListOptIn;
  consentText: string;
  snippet: string;
}
