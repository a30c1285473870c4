import { screen, waitFor } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { configureApiClient } from '@/lib/api-client';
import { renderWithProviders } from '@/test/render';
import { TemplateViewerPage } from './template-viewer-page';

const SLOW = { timeout: 5_000 };
const ID = '0190b5d2-0000-7000-8000-0000000000v1';

let restore: () => void = () => {};
afterEach(() => restore());

function renderViewer(path: string, answer: () => Response | Promise<Response>) {
  const fetch = vi.fn(async (_input: RequestInfo | URL) => answer());
  restore = configureApiClient({ fetch });
  const view = renderWithProviders(
    <Routes>
      <Route path="/campaign/:id/template-viewer" element={<TemplateViewerPage />} />
    </Routes>,
    { at: path },
  );
  return { fetch, ...view };
}

describe('TemplateViewerPage (/campaign/:id/template-viewer)', () => {
  it('stays blank until loaded, then shows the HTML in a sandboxed frame where script stays inert', async () => {
    let release: (response: Response) => void = () => {};
    const pending = new Promise<Response>((resolve) => {
      release = resolve;
    });
    const hostile =
      '<p>Olá, cliente!</p><script>parent.document.body.innerHTML = "pwned"</script><img src=x onerror="top.location=\'https://evil.test\'">';
    const { container } = renderViewer(`/campaign/${ID}/template-viewer`, () => pending);
    expect(container.textContent).toBe('');
    expect(container.querySelector('[aria-busy="true"]')).not.toBeNull();
    expect(container.querySelector('iframe')).toBeNull();

    release(Response.json({ id: ID, name: 'Promo', subject: 'Oi', html: hostile, personalised: false }));
    const frame = await screen.findByTitle('Visualização do e-mail', undefined, SLOW);
    // sandbox="" (no allow-scripts, no allow-same-origin): the sender's HTML runs nothing, on an opaque origin.
    expect(frame.getAttribute('sandbox')).toBe('');
    expect(frame.getAttribute('srcdoc')).toBe(hostile);
    expect(frame.getAttribute('referrerpolicy')).toBe('no-referrer');
    // Nothing of the sender's HTML is put into our own document.
    expect(document.querySelector('script')).toBeNull();
    expect(document.body.textContent).not.toContain('Olá, cliente!');
    expect(document.body.textContent).not.toContain('pwned');
  });

  it('passes the "ver no navegador" token along so the server can personalise', async () => {
    const { fetch } = renderViewer(`/campaign/${ID}/template-viewer?t=abc123`, () =>
      Response.json({ html: '<p>Olá, Ana!</p>', personalised: true }),
    );
    await screen.findByTitle('Visualização do e-mail', undefined, SLOW);
    expect(String(fetch.mock.calls[0]?.[0])).toBe(`/api/public/campaigns/${ID}/html?t=abc123`);
  });

  it('shows the pt-BR 404 page for an unknown campaign', async () => {
    renderViewer(`/campaign/${ID}/template-viewer`, () =>
      Response.json({ error: { code: 'not_found', message: 'Campanha não encontrada.' } }, { status: 404 }),
    );
    await screen.findByText('Página não encontrada', undefined, SLOW);
    expect(screen.getByText('404')).toBeTruthy();
    await waitFor(() => expect(document.title).toBe('Página não encontrada — Carteiro'));
    expect(document.querySelector('iframe')).toBeNull();
  });
});
