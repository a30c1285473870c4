import { apiFetch } from '@/lib/api-client';
import type { UploadedImage } from './upload-image';

/** The account's uploaded images, for the builder's asset manager. */
export async function getImages(signal?: AbortSignal): Promise<UploadedImage[]> {
  return (await apiFetch<{ items: UploadedImage[] }>('/api/uploads/images', { signal })).items;
}
