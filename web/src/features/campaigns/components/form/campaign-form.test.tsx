import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { configureApiClient } from '@/lib/api-client';
import { setLocale } from '@/lib/i18n';
import '@/lib/i18n/app-messages';
import { renderWithProviders } from '@/test/render';
import { CampaignForm } from './campaign-form';

const SLOW = { timeout: 5_000 };
const LIST = '0190b5d2-0000-7000-8000-00000000001a';

let restore: () => void = () => {};
afterEach(async () => {
  restore();
  await setLocale('pt-BR');
});

function renderForm(step: number) {
  const fetch = vi.fn(async (input: RequestInfo | URL) => {
    const url = String(input);
    if (url === '/api/lists')
      return Response.json({ items: [{ id: LIST, name: 'Clientes VIP', subscribedCount: 1200 }] });
    return Response.json({ items: [] });
  });
  restore = configureApiClient({ fetch });
  renderWithProviders(<CampaignForm campaign={null} />, { at: `/dashboard/campaigns/new?step=${step}` });
  return fetch;
}

describe('CampaignForm', () => {
  it('names its five steps and opens the one in the URL (pt-BR)', async () => {
    renderForm(2);
    const steps = screen.getByRole('navigation', { name: 'Etapas' });
    expect(
      within(steps)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['1Informações', '2Remetente', '3Público', '4Modelo', '5Rastreamento']);
    expect(screen.getByText('3. Público')).toBeTruthy();
    expect(await screen.findByRole('checkbox', { name: 'Enviar para Clientes VIP' }, SLOW)).toBeTruthy();
    expect(screen.getByRole('checkbox', { name: 'Excluir quem está em Clientes VIP' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Salvar e continuar' })).toBeTruthy();
  });

  it('speaks English with the en catalogue, and a list is sent to or excluded, never both', async () => {
    await setLocale('en');
    renderForm(2);
    const steps = screen.getByRole('navigation', { name: 'Steps' });
    expect(
      within(steps)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['1Details', '2Sender', '3Audience', '4Template', '5Tracking']);
    const include = await screen.findByRole('checkbox', { name: 'Send to Clientes VIP' }, SLOW);
    const exclude = screen.getByRole('checkbox', { name: 'Exclude those in Clientes VIP' });
    fireEvent.click(include);
    expect((include as HTMLInputElement).checked).toBe(true);
    fireEvent.click(exclude);
    expect((exclude as HTMLInputElement).checked).toBe(true);
    expect((include as HTMLInputElement).checked).toBe(false);
    expect(screen.getByRole('button', { name: 'Back' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Save and continue' })).toBeTruthy();
  });

  it('shows the details step in English: name, subject hint, A/B test', async () => {
    await setLocale('en');
    renderForm(0);
    expect(screen.getByLabelText('Campaign name (only you see it)')).toBeTruthy();
    expect(screen.getByLabelText('Subject')).toBeTruthy();
    expect(screen.getByLabelText('A/B test')).toBeTruthy();
    expect(screen.getByText('The summary shown next to the subject in the inbox.')).toBeTruthy();
    fireEvent.click(screen.getByLabelText('A/B test'));
    expect(screen.getByLabelText('Subject (variant A)')).toBeTruthy();
    expect(screen.getByLabelText('Subject of variant B')).toBeTruthy();
    expect(screen.getByText('4 hours after the send starts; on a tie variant A wins.')).toBeTruthy();
  });
});
