/**
 * The post-login destination from `?next=`, only when it is a same-origin relative path
 * ("/dashboard/…"): never "//evil.example", "/\\evil.example", "https://…" or "javascript:…". Else `fallback`.
 */
export function safeNextPath(next: string | null | undefined, fallback = '/dashboard'): string {
  if (!next) return fallback;
  if (!next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return fallback;
  // Control characters and backslashes let some browsers turn a path into another origin.
  for (const char of next) {
    const code = char.charCodeAt(0);
    if (code < 0x20 || code === 0x7f || char === '\\') return fallback;
  }
  try {
    const base = 'https://carteiro.invalid';
    const url = new URL(next, base);
    if (url.origin !== base) return fallback;
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return fallback;
  }
}

/** Why the login page was opened, when it should say so: the session ended (spec §8 `user-token-expired`). */
export const SESSION_EXPIRED_REASON = 'user-token-expired';
/**
 * The `?erro=` codes the login page explains on arrival: the session ended, or the server refused a sign-in
 * link (magic link, e-mail confirmation, Google) because an operator blocked the user, or the link did not work
 * (better-auth's error page redirects here).
 */
export const LOGIN_ARRIVAL_ERRORS = [SESSION_EXPIRED_REASON, 'user-disabled', 'invalid-action-code'] as const;
export type LoginArrivalError = (typeof LOGIN_ARRIVAL_ERRORS)[number];

export function loginArrivalError(value: string | null): LoginArrivalError | null {
  return LOGIN_ARRIVAL_ERRORS.find((code) => code === value) ?? null;
}

/**
 * `/auth/login?next=<path>` for a page that needs a session; with `&erro=user-token-expired` when the server said
 * the session ended, so the login page tells the user why they are there.
 */
export function loginPathFor(path: string, errorCode?: string): string {
  const reason = errorCode === SESSION_EXPIRED_REASON ? `&erro=${SESSION_EXPIRED_REASON}` : '';
  return `/auth/login?next=${encodeURIComponent(safeNextPath(path))}${reason}`;
}
