import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import '@/lib/i18n/app-messages';
import { COPIED_FEEDBACK_MS } from '@/lib/use-copy';
import { appStore } from '@/stores/app-store';
import { CopyButton } from './copy-button';

function stubClipboard(writeText: (text: string) => Promise<void>) {
  Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
}

afterEach(() => {
  appStore.dispatch({ type: 'REMOVE_TOAST' });
  vi.useRealTimers();
});

describe('CopyButton (the one copy-to-clipboard)', () => {
  it('copies, says "Copiado" in a toast and on the button, then goes back to its label', async () => {
    vi.useFakeTimers();
    const writeText = vi.fn(async () => {});
    stubClipboard(writeText);
    render(<CopyButton text="segredo" label="Copiar chave" />);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Copiar chave' })));
    expect(writeText).toHaveBeenCalledWith('segredo');
    expect(screen.getByRole('button', { name: 'Copiado' })).toBeTruthy();
    expect(appStore.getState().toasts.map((t) => [t.title, t.variant])).toContainEqual([
      'Copiado para a área de transferência',
      'success',
    ]);
    act(() => vi.advanceTimersByTime(COPIED_FEEDBACK_MS));
    expect(screen.getByRole('button', { name: 'Copiar chave' })).toBeTruthy();
  });

  it('when the browser refuses, selects the field to copy by hand and says so', async () => {
    stubClipboard(async () => {
      throw new DOMException('denied', 'NotAllowedError');
    });
    const field = document.createElement('textarea');
    field.value = 'código pix';
    document.body.append(field);
    const select = vi.spyOn(field, 'select');
    render(<CopyButton text="código pix" field={() => field} />);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Copiar' })));
    expect(select).toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Copiar' })).toBeTruthy();
    expect(appStore.getState().toasts.map((t) => [t.title, t.description, t.variant])).toContainEqual([
      'Não foi possível copiar',
      'Selecione o texto e copie manualmente.',
      'error',
    ]);
    field.remove();
  });
});
