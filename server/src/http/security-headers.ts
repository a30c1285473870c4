import type { FastifyInstance } from 'fastify';

/**
 * Security headers on every answer. The CSP lets sender HTML show images in previews (frames inherit it) but
 * never run script: previews use <iframe sandbox srcdoc>, and script-src is 'self' only.
 */
export function registerSecurityHeaders(app: FastifyInstance, options: { isProduction: boolean }): void {
  const csp = [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob: https: http:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "frame-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'self'",
  ].join('; ');
  app.addHook('onSend', async (request, reply, payload) => {
    reply.header('x-request-id', request.id);
    reply.header('x-content-type-options', 'nosniff');
    // A route may ask for a stricter policy (the click redirect and the unsubscribe pages send no-referrer).
    if (!reply.hasHeader('referrer-policy')) reply.header('referrer-policy', 'strict-origin-when-cross-origin');
    reply.header('x-frame-options', 'SAMEORIGIN');
    if (!reply.hasHeader('content-security-policy')) reply.header('content-security-policy', csp);
    if (options.isProduction) reply.header('strict-transport-security', 'max-age=31536000; includeSubDomains');
    // API answers carry an account's data (contacts, members, balances): no browser or proxy keeps a copy
    // (OWASP ASVS 5.0 §14.3). A route that is safe to cache says so itself (the public campaign viewer).
    if (request.url.startsWith('/api/') && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    return payload;
  });
}
