// Files on local disk (MARGINALIA_ATTACHMENTS_DIR): written to a temporary name (0600) and renamed into place once
// whole, so a reader never sees half a file and a failed upload leaves at most a temporary one.
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { type AttachmentStorage, checkedKey, STORAGE_KEY } from './storage.js';

export class DiskStorage implements AttachmentStorage {
  readonly kind = 'disk' as const;
  constructor(private readonly dir: string) {}

  private pathOf(key: string): string {
    return join(this.dir, checkedKey(key));
  }

  async put(key: string, body: Readable): Promise<void> {
    const path = this.pathOf(key);
    await mkdir(join(path, '..'), { recursive: true, mode: 0o700 });
    const partial = `${path}.part`;
    try {
      await pipeline(body, createWriteStream(partial, { flags: 'wx', mode: 0o600 }));
      await rename(partial, path);
    } catch (err) {
      await rm(partial, { force: true });
      throw err;
    }
  }

  async get(key: string): Promise<Readable | null> {
    const stream = createReadStream(this.pathOf(key));
    return new Promise((resolve, reject) => {
      stream.once('open', () => resolve(stream));
      stream.once('error', (err: NodeJS.ErrnoException) => (err.code === 'ENOENT' ? resolve(null) : reject(err)));
    });
  }

  async remove(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  async list(): Promise<string[]> {
    let folders: string[];
    try {
      folders = await readdir(this.dir);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw err;
    }
    const keys: string[] = [];
    for (const folder of folders.sort()) {
      if (!/^[0-9a-f]{2}$/.test(folder)) continue;
      for (const name of (await readdir(join(this.dir, folder))).sort()) {
        const key = `${folder}/${name}`;
        if (STORAGE_KEY.test(key)) keys.push(key);
      }
    }
    return keys;
  }
}
