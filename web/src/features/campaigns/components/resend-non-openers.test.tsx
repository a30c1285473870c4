import { fireEvent, screen, waitFor } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { configureApiClient } from '@/lib/api-client';
import '@/lib/i18n/app-messages';
import { renderWithProviders } from '@/test/render';
import type { Campaign } from '../api/types';
import { ResendNonOpeners } from './resend-non-openers';

const SLOW = { timeout: 5_000 };
const ORIGINAL = { id: '0190b5d2-0000-7000-8000-0000000000a1', subject: 'Black Friday' } as Campaign;
const FOLLOW_UP = '0190b5d2-0000-7000-8000-0000000000a2';

let restore: () => void = () => {};
afterEach(() => restore());

function renderButton(answer: () => Response) {
  const fetch = vi.fn(async () => answer());
  restore = configureApiClient({ fetch });
  renderWithProviders(
    <Routes>
      <Route path="/view" element={<ResendNonOpeners campaign={ORIGINAL} />} />
      <Route path="/dashboard/campaigns/:id/view" element={<p>rascunho aberto</p>} />
    </Routes>,
    { at: '/view' },
  );
  return fetch;
}

describe('ResendNonOpeners ("Reenviar para quem não abriu")', () => {
  it('creates the follow-up draft with the new subject and opens it', async () => {
    const fetch = renderButton(() => Response.json({ id: FOLLOW_UP }, { status: 201 }));
    fireEvent.click(screen.getByRole('button', { name: 'Reenviar para quem não abriu' }));
    const subject = screen.getByLabelText('Novo assunto (opcional)') as HTMLInputElement;
    expect(subject.value).toBe('Black Friday');
    fireEvent.change(subject, { target: { value: 'Última chance' } });
    fireEvent.click(screen.getByRole('button', { name: 'Criar campanha de reenvio' }));
    await screen.findByText('rascunho aberto', undefined, SLOW);
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe(`/api/campaigns/${ORIGINAL.id}/resend-non-openers`);
    expect(init.method).toBe('POST');
    expect(JSON.parse(String(init.body))).toEqual({ subject: 'Última chance' });
  });

  it('shows the server’s pt-BR refusal', async () => {
    renderButton(() =>
      Response.json(
        {
          error: {
            code: 'conflict',
            message: 'Só é possível reenviar para quem não abriu depois que a campanha foi enviada.',
          },
        },
        { status: 409 },
      ),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Reenviar para quem não abriu' }));
    fireEvent.click(screen.getByRole('button', { name: 'Criar campanha de reenvio' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toContain('depois que a campanha foi enviada'));
  });
});
