import type { Page } from 'playwright-core';

/**
 * A same-origin JSON call made by the page itself (its session cookie goes along, and the Origin the CSRF check
 * trusts): GET without a body, POST with one. Throws on a non-2xx answer with the path, status and body.
 */
export async function pageApi<T>(page: Page, path: string, body?: unknown): Promise<T> {
  return page.evaluate(
    async ({ path, body }) => {
      const response = await fetch(path, {
        method: body === undefined ? 'GET' : 'POST',
        headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (!response.ok) throw new Error(`${path}: HTTP ${response.status} ${await response.text()}`);
      return response.json();
    },
    { path, body },
  ) as Promise<T>;
}
