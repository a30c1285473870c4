import type { SignedInUser } from './sign-in';
import type { TestApp } from './test-app';

/**
 * Polls GET /api/imports/:id until the import is done or failed; returns its last body. The bound is a liveness
 * check, well under the test's own timeout, not a speed check: a 40,000-row import takes 1.5–2.5 s on PostgreSQL
 * here, even with both cores busy, and a run that ends without it says how far the import had got.
 */
export async function waitForImport(t: TestApp, user: SignedInUser, id: string, seconds = 20) {
  const deadline = Date.now() + seconds * 1000;
  let last: unknown = null;
  while (Date.now() < deadline) {
    const body = (await t.app.inject({ url: `/api/imports/${id}`, headers: user.headers })).json();
    if (body.status === 'done' || body.status === 'failed') return body;
    last = body;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`import did not finish in ${seconds} s; last seen: ${JSON.stringify(last)}`);
}

/** A CSV of `n` rows: every 1000th address invalid, every 1000th (offset 499) a repeat of the row before it. */
export function csvOf(n: number, tag: string): { content: string; valid: number; invalid: number; duplicate: number } {
  const lines = ['email;nome'];
  let invalid = 0;
  let duplicate = 0;
  for (let i = 0; i < n; i++) {
    if (i % 1000 === 999) {
      lines.push(`sem-arroba-${i};Inválido`);
      invalid++;
    } else if (i % 1000 === 499) {
      lines.push(`p${i - 1}-${tag}@destino.com.br;Repetida`);
      duplicate++;
    } else lines.push(`p${i}-${tag}@destino.com.br;Pessoa ${i}`);
  }
  return { content: `${lines.join('\n')}\n`, valid: n - invalid - duplicate, invalid, duplicate };
}
