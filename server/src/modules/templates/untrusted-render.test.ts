import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { AppError } from '../../http/app-error';
import { buildScope, compileCampaign, renderMessage } from './render-message';
import {
  closeUntrustedRendering,
  configureUntrustedRendering,
  DEFAULT_RENDER_POOL,
  RenderPoolError,
  renderUntrusted,
  renderUntrustedOrExplain,
  TemplateRenderError,
} from './untrusted-render';

const SCOPE = buildScope(
  { email: 'ana@example.com', name: 'Ana <b>Souza</b>', fields: { cidade: 'Recife' } },
  { name: 'Padaria', legalName: 'Padaria Ltda', address: 'Rua A, 1', taxId: '11222333000181' },
  { unsubscribeUrl: 'https://x.test/u/1', browserUrl: 'https://x.test/v/1' },
  'Campanha',
);

/**
 * Passes the save-time budget (9,900 iterations) and the memory limit, but sorts a 500-item list at each
 * iteration: on the main thread it runs until liquidjs's 1 s render limit stops it.
 */
const SLOW = `{% assign a = "${'jihgfedcba'.repeat(50)}" | split: "" %}{% for i in (1..9900) %}{% assign b = a | sort | reverse %}{% endfor %}{{ b | first }}`;

/** Counts how many times the main thread's event loop turned while `work` was pending. */
async function loopTurnsDuring<T>(work: Promise<T>): Promise<{ turns: number; result: PromiseSettledResult<T> }> {
  let turns = 0;
  const timer = setInterval(() => {
    turns += 1;
  }, 5);
  const [result] = await Promise.allSettled([work]);
  clearInterval(timer);
  return { turns, result: result as PromiseSettledResult<T> };
}

describe('rendering sender templates off the event loop', () => {
  afterEach(() => configureUntrustedRendering(DEFAULT_RENDER_POOL));
  afterAll(() => closeUntrustedRendering());

  it('renders exactly what the in-process renderer does', async () => {
    const source = {
      subject: 'Oi {{ contato.nome }} de {{ contato.cidade }}',
      preheader: 'Novidades',
      html: '<body><p>Olá, {{ contato.nome }}!</p><a href="{{ link_descadastro }}">Sair</a></body>',
    };
    expect(await renderUntrusted(source, SCOPE)).toEqual(renderMessage(compileCampaign(source), SCOPE));
  });

  it('tells the template’s own failures apart, in pt-BR once explained', async () => {
    const broken = renderUntrusted({ subject: 'x', html: '{% if %}' }, SCOPE);
    await expect(broken).rejects.toBeInstanceOf(TemplateRenderError);
    await expect(broken).rejects.toMatchObject({ stage: 'compile' });
    await expect(renderUntrustedOrExplain({ subject: 'x', html: '{{ contato.nome' }, SCOPE)).rejects.toMatchObject({
      code: 'validation_failed',
      message: expect.stringMatching(/^O modelo tem um erro de Liquid: /),
    });
    const fields = { itens: Array.from({ length: 20_000 }, (_, i) => i) };
    const runaway = renderUntrustedOrExplain(
      { subject: 'x', html: '{% for i in contato.itens %}{{ i }}{% endfor %}' },
      { ...SCOPE, contato: { ...SCOPE.contato, ...fields } },
    );
    await expect(runaway).rejects.toBeInstanceOf(AppError);
    await expect(runaway).rejects.toMatchObject({
      message: 'O modelo não pôde ser processado: o modelo passou de 10.000 repetições de laço numa mensagem',
    });
  });

  it('kills a render past its deadline with its thread, while the event loop keeps turning; the next render works', async () => {
    configureUntrustedRendering({ workers: 1, deadlineMs: 150, maxQueued: 10 });
    await renderUntrusted({ subject: 'aquecimento', html: 'x' }, SCOPE); // the thread has started
    const { turns, result } = await loopTurnsDuring(renderUntrusted({ subject: 'lento', html: SLOW }, SCOPE));
    expect(result.status).toBe('rejected');
    const reason = (result as PromiseRejectedResult).reason;
    expect(reason).toBeInstanceOf(RenderPoolError);
    expect(reason).toMatchObject({ reason: 'deadline' });
    expect(turns).toBeGreaterThan(1);
    await expect(renderUntrustedOrExplain({ subject: 'lento', html: SLOW }, SCOPE)).rejects.toMatchObject({
      code: 'validation_failed',
      message:
        'O modelo demorou demais para ser processado e foi interrompido. Simplifique os laços ({% for %}) e os filtros do modelo.',
    });
    // The pool starts a new thread for the next render. That thread's first render is cold (its JIT has not run),
    // which on a loaded machine can itself pass this test's short deadline: only a deadline may be retried.
    let after: { html: string } | null = null;
    for (let attempt = 0; attempt < 3 && !after; attempt++) {
      try {
        after = await renderUntrusted({ subject: 'depois', html: '<p>{{ contato.cidade }}</p>' }, SCOPE);
      } catch (error) {
        if (!(error instanceof RenderPoolError && error.reason === 'deadline')) throw error;
      }
    }
    expect(after?.html).toBe('<p>Recife</p>');
  });

  it('refuses at once past its queue (503), instead of piling work up', async () => {
    configureUntrustedRendering({ workers: 1, deadlineMs: 150, maxQueued: 1 });
    const running = renderUntrusted({ subject: 'lento', html: SLOW }, SCOPE);
    const queued = renderUntrusted({ subject: 'lento', html: SLOW }, SCOPE);
    await expect(renderUntrustedOrExplain({ subject: 'x', html: 'x' }, SCOPE)).rejects.toMatchObject({
      code: 'service_unavailable',
      status: 503,
    });
    await Promise.allSettled([running, queued]);
  });
});
