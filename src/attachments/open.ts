// The storage the configuration names: an S3-compatible store when MARGINALIA_S3_ENDPOINT is set, else the folder.
import type { Config } from '../config/index.js';
import { DiskStorage } from './disk.js';
import { S3Storage } from './s3.js';
import type { AttachmentStorage } from './storage.js';

export function openAttachmentStorage(settings: Config['attachments']): AttachmentStorage {
  const s3 = settings.s3;
  if (s3.endpoint === null) return new DiskStorage(settings.dir);
  if (s3.bucket === null || s3.accessKeyId === null || s3.secretAccessKey === null)
    throw new Error(
      'MARGINALIA_S3_ENDPOINT needs MARGINALIA_S3_BUCKET, MARGINALIA_S3_ACCESS_KEY_ID and MARGINALIA_S3_SECRET_ACCESS_KEY.',
    );
  return new S3Storage({
    endpoint: s3.endpoint,
    bucket: s3.bucket,
    region: s3.region ?? 'us-east-1',
    accessKeyId: s3.accessKeyId,
    secretAccessKey: s3.secretAccessKey,
    pathStyle: s3.pathStyle,
  });
}
