import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Db } from '../../db/database';
import { AppError } from '../../http/app-error';
import { idParam } from '../../http/id-param';
import { notFound } from '../../http/not-found';
import { requireActor } from '../auth/request-actor';
import type { FileStorage, ReadableFileStorage } from './file-storage';
import { contentTypeForExtension, IMAGE_TYPES } from './image-sniff';
import { deleteImage, formatMegabytes, listImages, saveImage } from './uploads';

export interface UploadsRoutesOptions {
  db: Db;
  storage: FileStorage;
  maxBytes: number;
}

function tooLarge(maxBytes: number): AppError {
  return new AppError('image_too_large', `A imagem passa do limite de ${formatMegabytes(maxBytes)}.`, { maxBytes });
}

/** The optional `x-file-name` header (percent-encoded UTF-8), kept for display in the asset manager. */
function fileName(header: unknown): string | null {
  if (typeof header !== 'string' || !header.trim()) return null;
  let name = header;
  try {
    name = decodeURIComponent(header);
  } catch {
    // keep it as sent
  }
  const clean = [...name]
    .filter((c) => c.charCodeAt(0) >= 0x20 && c.charCodeAt(0) !== 0x7f)
    .join('')
    .trim()
    .slice(0, 200);
  return clean || null;
}

/**
 * Image upload for the template editor, scoped by the actor's account:
 * POST /api/uploads/images (raw body, content-type image/png|jpeg|gif|webp, or any other type to be refused
 * with a precise pt-BR 415), GET /api/uploads/images, DELETE /api/uploads/images/:id.
 */
export async function uploadsRoutes(app: FastifyInstance, opts: UploadsRoutesOptions): Promise<void> {
  const { db, storage, maxBytes } = opts;

  // Raw bodies of any non-JSON type reach the handler as a Buffer, so that an SVG or an HTML file gets the
  // upload's own 415 instead of Fastify's generic one. The limit is counted while reading (413 at once).
  app.addContentTypeParser('*', (request, payload, done) => {
    const declared = Number(request.headers['content-length']);
    if (Number.isFinite(declared) && declared > maxBytes) {
      payload.resume();
      done(tooLarge(maxBytes), undefined);
      return;
    }
    const chunks: Buffer[] = [];
    let total = 0;
    let finished = false;
    payload.on('data', (chunk: Buffer) => {
      if (finished) return;
      total += chunk.length;
      if (total > maxBytes) {
        finished = true;
        done(tooLarge(maxBytes), undefined);
        return;
      }
      chunks.push(chunk);
    });
    payload.on('end', () => {
      if (finished) return;
      finished = true;
      done(null, Buffer.concat(chunks, total));
    });
    payload.on('error', (error) => {
      if (finished) return;
      finished = true;
      done(error, undefined);
    });
  });

  app.post('/api/uploads/images', async (request, reply) => {
    const actor = await requireActor(request);
    if (!Buffer.isBuffer(request.body)) {
      const types = Object.keys(IMAGE_TYPES).join(', ');
      throw new AppError('unsupported_image', `Envie a imagem no corpo da requisição com content-type ${types}.`);
    }
    const { image, created } = await saveImage(
      db,
      storage,
      actor.accountId,
      request.body,
      fileName(request.headers['x-file-name']),
    );
    return reply.status(created ? 201 : 200).send(image);
  });

  app.get('/api/uploads/images', async (request) => {
    const actor = await requireActor(request);
    const query = z
      .object({ limit: z.coerce.number().int().min(1).max(1000).default(200) })
      .safeParse(request.query ?? {});
    const limit = query.success ? query.data.limit : 200;
    return { items: await listImages(db, storage, actor.accountId, limit) };
  });

  app.delete('/api/uploads/images/:id', async (request, reply) => {
    const actor = await requireActor(request);
    await deleteImage(db, storage, actor.accountId, idParam(request.params, 'image'));
    return reply.status(204).send();
  });
}

/**
 * GET /uploads/:key for the local directory: public (the URLs go into e-mails), immutable, only keys Carteiro
 * generated (no path traversal possible), served with the type of the key's extension — which was set from the
 * sniffed bytes at upload — and `nosniff`, `inline` and a CSP that forbids everything active.
 */
export async function localUploadsRoutes(app: FastifyInstance, opts: { storage: ReadableFileStorage }): Promise<void> {
  app.get('/uploads/:key', async (request, reply) => {
    const { key } = request.params as { key: string };
    const file = await opts.storage.open(key);
    const contentType = contentTypeForExtension(key.slice(key.lastIndexOf('.') + 1));
    if (!file || !contentType) {
      file?.stream.destroy();
      throw notFound('image');
    }
    return reply
      .header('content-type', contentType)
      .header('content-length', file.bytes)
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('content-disposition', 'inline')
      .header('x-content-type-options', 'nosniff')
      .header('cross-origin-resource-policy', 'cross-origin')
      .header('content-security-policy', "default-src 'none'; sandbox")
      .send(file.stream);
  });
}
