import { Readable } from 'node:stream';
import { importStartSchema } from '@carteiro/shared';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { Db } from '../../db/database';
import { AppError } from '../../http/app-error';
import { ERROR_TEXT } from '../../http/error-texts';
import { idParam } from '../../http/id-param';
import { parseInput } from '../../http/validate';
import type { JobQueue } from '../../jobs/job-queue';
import { requireActor } from '../auth/request-actor';
import type { ConsentLinks } from '../subscriptions/consent-requests';
import { findImport, findRejectedFile, MAX_IMPORT_BYTES, startImport, uploadImport } from './import-files';
import { IMPORT_JOB, runImport } from './run-import';

/** The display name the client sends percent-encoded in `x-file-name`; a malformed one is a pt-BR 400. */
function fileNameOf(header: string | string[] | undefined): string | null {
  if (typeof header !== 'string') return null;
  try {
    return decodeURIComponent(header);
  } catch {
    throw new AppError(
      'validation_failed',
      'O nome do arquivo (cabeçalho x-file-name) está mal codificado: envie-o com encodeURIComponent.',
    );
  }
}

export interface ImportsRoutesOptions {
  db: Db;
  /** What the confirmation e-mails of a double opt-in list need (when the import runs in this process). */
  links: ConsentLinks;
  /** pg-boss; null (tests, no worker) runs the import in this process. */
  jobs: JobQueue | null;
  logger: Logger;
}

/**
 * CSV import: `POST /api/imports` takes the raw file (text/csv or application/octet-stream body, streamed to
 * disk, up to 200 MB; file name in `x-file-name`) and answers the preview; `POST /api/imports/:id/start` takes
 * the mapping step and queues the job; `GET /api/imports/:id` is contact_upload_progress.
 */
export async function importsRoutes(app: FastifyInstance, opts: ImportsRoutesOptions): Promise<void> {
  const { db, logger } = opts;
  for (const type of ['text/csv', 'application/octet-stream', 'application/vnd.ms-excel', 'text/plain']) {
    app.addContentTypeParser(type, (_request, payload, done) => done(null, payload));
  }

  app.post('/api/imports', { bodyLimit: MAX_IMPORT_BYTES }, async (request, reply) => {
    const actor = await requireActor(request);
    const body = request.body as Readable | undefined;
    if (!body || typeof (body as Readable).pipe !== 'function') {
      throw new AppError(
        'unsupported_media_type',
        'Envie o arquivo CSV no corpo da requisição (Content-Type: text/csv).',
      );
    }
    const declared = Number(request.headers['content-length'] ?? 0);
    if (declared > MAX_IMPORT_BYTES) throw new AppError('payload_too_large', ERROR_TEXT.imports.fileTooLarge);
    const result = await uploadImport(db, actor.accountId, body, fileNameOf(request.headers['x-file-name']));
    return reply.status(201).send(result);
  });

  app.post('/api/imports/:id/start', async (request, reply) => {
    const actor = await requireActor(request);
    const id = idParam(request.params, 'import');
    await startImport(db, actor.accountId, id, parseInput(importStartSchema, request.body), actor);
    if (opts.jobs) await opts.jobs.send(IMPORT_JOB, { importId: id });
    else {
      setImmediate(() => {
        runImport(db, id, opts.links, logger).catch((error: unknown) =>
          logger.error({ err: error, importId: id }, 'import crashed'),
        );
      });
    }
    return reply.status(202).send(await findImport(db, actor.accountId, id));
  });

  app.get('/api/imports/:id', async (request) => {
    const actor = await requireActor(request);
    return findImport(db, actor.accountId, idParam(request.params, 'import'));
  });

  app.get('/api/imports/:id/rejected.csv', async (request, reply) => {
    const actor = await requireActor(request);
    const id = idParam(request.params, 'import');
    const file = await findRejectedFile(db, actor.accountId, id);
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="rejeitados-${id}.csv"`)
      .send(Readable.from(file));
  });
}
