import type { Config } from '../../config';
import type { FileStorage } from './file-storage';
import { createLocalStorage } from './local-storage';
import { createS3Storage } from './s3-storage';

/** The configured storage: S3-compatible when every S3_* variable is set, else the local directory. */
export function createFileStorage(config: Config): FileStorage {
  if (config.s3) return createS3Storage(config.s3);
  return createLocalStorage({ dir: config.UPLOADS_DIR, publicUrl: config.PUBLIC_URL });
}
