import type { UploadedImage } from '@carteiro/shared';
import { uploadWithRetry } from '@/lib/upload';

export type { UploadedImage };

/** Uploads an image for e-mails (PNG, JPEG, GIF, WebP; the server checks the bytes and the size). */
export function uploadImage(file: File): Promise<UploadedImage> {
  return uploadWithRetry<UploadedImage>('/api/uploads/images', {
    body: file,
    headers: { 'Content-Type': file.type || 'application/octet-stream', 'x-file-name': encodeURIComponent(file.name) },
  });
}
