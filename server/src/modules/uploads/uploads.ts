import { createHash, randomBytes } from 'node:crypto';
import type { UploadedImage } from '@carteiro/shared';
import { and, desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { AppError } from '../../http/app-error';
import { ERROR_TEXT } from '../../http/error-texts';
import { notFound } from '../../http/not-found';
import type { FileStorage } from './file-storage';
import { looksLikeSvg, sniffImage } from './image-sniff';
import { type UploadedFileRow, uploadedFiles } from './uploads.db';

export function toUploadedImage(row: UploadedFileRow, storage: FileStorage): UploadedImage {
  return {
    id: row.id,
    url: storage.publicUrl(row.storageKey),
    ...(row.width !== null ? { width: row.width } : {}),
    ...(row.height !== null ? { height: row.height } : {}),
    bytes: row.bytes,
    contentType: row.contentType,
    ...(row.name ? { name: row.name } : {}),
    createdAt: row.createdAt.toISOString(),
  };
}

export function formatMegabytes(bytes: number): string {
  const format = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(1).replace('.', ','));
  return bytes >= 1024 * 1024 ? `${format(bytes / (1024 * 1024))} MB` : `${format(bytes / 1024)} KB`;
}

/**
 * Checks the bytes are a PNG, JPEG, GIF or WebP image (by magic bytes), stores them and records the file.
 * The same bytes uploaded again by the same account return the existing file (`created: false`).
 */
export async function saveImage(
  db: Db,
  storage: FileStorage,
  accountId: string,
  body: Buffer,
  name: string | null,
): Promise<{ image: UploadedImage; created: boolean }> {
  if (body.length === 0) throw new AppError('bad_request', ERROR_TEXT.uploads.emptyImage);
  const sniffed = sniffImage(body);
  if (!sniffed) {
    throw new AppError(
      'unsupported_image',
      looksLikeSvg(body)
        ? 'Imagens SVG não são aceitas (podem conter scripts). Envie PNG, JPEG, GIF ou WebP.'
        : 'O arquivo não é uma imagem PNG, JPEG, GIF ou WebP válida.',
    );
  }
  const sha256 = createHash('sha256').update(body).digest('hex');
  const [existing] = await db
    .select()
    .from(uploadedFiles)
    .where(and(eq(uploadedFiles.accountId, accountId), eq(uploadedFiles.sha256, sha256)))
    .limit(1);
  if (existing) return { image: toUploadedImage(existing, storage), created: false };

  const storageKey = `${randomBytes(16).toString('hex')}.${sniffed.extension}`;
  await storage.put(storageKey, body, sniffed.contentType);
  try {
    const [row] = await db
      .insert(uploadedFiles)
      .values({
        accountId,
        storageKey,
        contentType: sniffed.contentType,
        bytes: body.length,
        sha256,
        width: sniffed.width,
        height: sniffed.height,
        name,
      })
      .returning();
    if (!row) throw new Error('uploaded_files insert returned nothing');
    return { image: toUploadedImage(row, storage), created: true };
  } catch (error) {
    await storage.delete(storageKey).catch(() => {});
    throw error;
  }
}

export async function listImages(
  db: Db,
  storage: FileStorage,
  accountId: string,
  limit: number,
): Promise<UploadedImage[]> {
  const rows = await db
    .select()
    .from(uploadedFiles)
    .where(eq(uploadedFiles.accountId, accountId))
    .orderBy(desc(uploadedFiles.createdAt), desc(uploadedFiles.id))
    .limit(limit);
  return rows.map((row) => toUploadedImage(row, storage));
}

/** Deletes the account's image (row first, then the stored object); 404 for another account's id. */
export async function deleteImage(db: Db, storage: FileStorage, accountId: string, id: string): Promise<void> {
  const [row] = await db
    .delete(uploadedFiles)
    .where(and(eq(uploadedFiles.accountId, accountId), eq(uploadedFiles.id, id)))
    .returning();
  if (!row) throw notFound('image');
  await storage.delete(row.storageKey);
}
