import type { SignedInUser } from './sign-in';
import type { TestApp } from './test-app';

/** Polls GET /api/imports/:id until the import is done or failed (5 s at most); returns its last body. */
export async function waitForImport(t: TestApp, user: SignedInUser, id: string) {
  for (let i = 0; i < 200; i++) {
    const body = (await t.app.inject({ url: `/api/imports/${id}`, headers: user.headers })).json();
    if (body.status === 'done' || body.status === 'failed') return body;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('import did not finish');
}
