// The one interface of the places uploaded files are kept. Keys are the server's own (newStorageKey): no caller
// input ever reaches a path or an object name.
import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';

export interface AttachmentStorage {
  readonly kind: 'disk' | 's3';
  /** Stores the whole stream under `key`; rejects (and keeps nothing) when the stream fails. */
  put(key: string, body: Readable, mimeType: string): Promise<void>;
  /** The stored bytes as a stream; null when there is no such file. */
  get(key: string): Promise<Readable | null>;
  /** Removes the file; a file already gone is no error (removals are retried and may run twice). */
  remove(key: string): Promise<void>;
  /** Every key stored (tests and operators: what is kept). */
  list(): Promise<string[]>;
}

/** A key: two hex characters of fan-out, then 32 more (128 random bits). */
export const STORAGE_KEY = /^[0-9a-f]{2}\/[0-9a-f]{32}$/;

export function newStorageKey(): string {
  const hex = randomBytes(16).toString('hex');
  return `${hex.slice(0, 2)}/${hex}`;
}

/** Refuses anything that is not a key of ours before it reaches the file system or a URL. */
export function checkedKey(key: string): string {
  if (!STORAGE_KEY.test(key)) throw new Error(`not a storage key: ${JSON.stringify(key.slice(0, 80))}`);
  return key;
}
