import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ErrorPanel } from '@/components/kit';
import { ApiError, apiFetch, configureApiClient } from '@/lib/api-client';
import { errorText } from '@/lib/error-text';
import { setLocale } from '@/lib/i18n';
import { toastError } from '@/lib/notify';
import { appStore } from '@/stores/app-store';

// One text per failure, wherever it shows: a toast, ErrorPanel, a form's error line all call errorText.

/** An apiFetch that fails the way the server does: `{ error: { code, message } }` with the given status. */
async function failedCall(status: number, error: { code: string; message: string }, headers = {}) {
  const restore = configureApiClient({
    fetch: async () => Response.json({ error }, { status, headers }),
  });
  try {
    await apiFetch('/api/anything');
  } catch (caught) {
    return caught;
  } finally {
    restore();
  }
  throw new Error('the call did not fail');
}

const LIMIT = { code: 'too_many_requests', message: 'Limite de envios de teste atingido.' };

afterEach(async () => {
  await setLocale('pt-BR');
});

describe('errorText', () => {
  it("shows the server's precise pt-BR message, not the code's general text", async () => {
    const failure = await failedCall(400, { code: 'validation_failed', message: 'Linha 3: tag {% if não fechada.' });
    expect(errorText(failure)).toBe('Linha 3: tag {% if não fechada.');
  });

  it('says how long to wait on a rate limit, from Retry-After, in pt-BR and in English', async () => {
    const failure = await failedCall(429, LIMIT, { 'Retry-After': '90' });
    expect(errorText(failure)).toBe('Limite de envios de teste atingido. Tente de novo em 2 minutos.');
    await setLocale('en');
    expect(errorText(failure)).toBe('Too many attempts. Wait a moment and try again. Try again in 2 minutes.');
  });

  it("in English, the catalogue's text for a known code and the server's message for an unknown one", async () => {
    await setLocale('en');
    expect(errorText(new ApiError(409, 'conflict', 'Conflito.'))).toBe(
      'This action conflicted with another change. Reload and try again.',
    );
    expect(errorText(new ApiError(400, 'some_new_code', 'Mensagem nova do servidor.'))).toBe(
      'Mensagem nova do servidor.',
    );
  });

  it("a code alone gets the catalogue's text; our own Error its message; a bug the generic text", () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(errorText({ code: 'invalid-credential' })).toBe('E-mail ou senha incorretos.');
    expect(errorText(new Error('Não foi possível carregar a documentação.'))).toBe(
      'Não foi possível carregar a documentação.',
    );
    expect(errorText(new TypeError("Cannot read properties of undefined (reading 'x')"))).toBe('Algo deu errado');
    expect(warn).toHaveBeenCalledOnce();
    warn.mockRestore();
  });
});

describe('every place an error shows uses it', () => {
  it("ErrorPanel shows the server's message and the wait", async () => {
    render(<ErrorPanel error={await failedCall(429, LIMIT, { 'Retry-After': '40' })} />);
    expect(screen.getByRole('alert').textContent).toContain(
      'Limite de envios de teste atingido. Tente de novo em 40 segundos.',
    );
  });

  it("a toast shows the server's message", async () => {
    toastError(
      'Não foi possível salvar',
      await failedCall(402, { code: 'insufficient_balance', message: 'Faltam R$ 1,25.' }),
    );
    expect(appStore.getState().toasts.at(-1)).toMatchObject({
      variant: 'error',
      title: 'Não foi possível salvar',
      description: 'Faltam R$ 1,25.',
    });
  });
});
