import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { AppError } from './app-error';

const API_PREFIXES = ['/api/', '/dev/', '/firebase', '/send-campaign', '/healthz', '/readyz', '/metrics', '/uploads/'];

/**
 * Serves the built SPA (web/dist) with history fallback: any GET that is not an API path and asks for HTML
 * gets index.html, so deep links such as /dashboard/campaigns/new load. API paths answer a JSON 404.
 */
export async function registerSpa(app: FastifyInstance, webDistDir: string | null): Promise<void> {
  const indexHtml = webDistDir ? path.join(webDistDir, 'index.html') : null;
  const hasSpa = indexHtml !== null && fs.existsSync(indexHtml);
  if (hasSpa && webDistDir) {
    await app.register(fastifyStatic, {
      root: webDistDir,
      wildcard: false,
      index: false,
      setHeaders(res, filePath) {
        if (filePath.includes(`${path.sep}assets${path.sep}`)) {
          res.header('cache-control', 'public, max-age=31536000, immutable');
        }
      },
    });
  }
  app.setNotFoundHandler(async (request, reply) => {
    const pathname = request.url.split('?', 1)[0] ?? '/';
    const isApi = API_PREFIXES.some((prefix) => pathname.startsWith(prefix));
    if (!isApi && (request.method === 'GET' || request.method === 'HEAD') && hasSpa) {
      reply.header('cache-control', 'no-cache');
      return reply.type('text/html; charset=utf-8').send(fs.createReadStream(indexHtml as string));
    }
    if (!isApi && request.method === 'GET' && !hasSpa) {
      return reply
        .status(503)
        .type('text/html; charset=utf-8')
        .send(
          '<!doctype html><meta charset="utf-8"><p>A interface web ainda não foi compilada. Rode <code>npm run build</code>.</p>',
        );
    }
    throw new AppError('not_found', `Rota não encontrada: ${request.method} ${pathname}`);
  });
}
