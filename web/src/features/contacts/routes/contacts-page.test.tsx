import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { configureApiClient } from '@/lib/api-client';
import '@/lib/i18n/app-messages';
import { queryClient } from '@/lib/query-client';
import { renderWithProviders } from '@/test/render';
import { NewContactForm } from './contacts-page';

let restore: () => void = () => {};
afterEach(() => {
  restore();
  queryClient.clear();
});

function descriptionOf(element: HTMLElement): string {
  const ids = element.getAttribute('aria-describedby') ?? '';
  return ids
    .split(/\s+/)
    .filter(Boolean)
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ');
}

describe('Novo contato', () => {
  it('explains "Base legal" and "Origem do consentimento" in plain words (LGPD jargon gets a hint)', () => {
    restore = configureApiClient({ fetch: vi.fn(async () => Response.json({ lists: [], total: 0 })) });
    renderWithProviders(<NewContactForm onDone={() => {}} />, { client: queryClient });
    expect(descriptionOf(screen.getByLabelText('Base legal'))).toMatch(/LGPD.*Na dúvida, escolha Consentimento/);
    expect(descriptionOf(screen.getByLabelText('Origem do consentimento'))).toMatch(/balcão da loja/);
  });
});
