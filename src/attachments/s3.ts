// Files in an S3-compatible store (MARGINALIA_S3_*), signed with aws4fetch (docs/decisions.md, "Attachments
// (issue 41)": a few kilobytes against the AWS SDK's megabytes, for the four requests this needs). S3 wants a
// PUT's length up front, so an upload is first spooled to a private temporary file (hashed on the way, which signs
// the payload), then sent from it; the request goes out through node:http(s), streamed both ways.
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AwsV4Signer } from 'aws4fetch';
import { type AttachmentStorage, checkedKey } from './storage.js';

export interface S3Settings {
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  pathStyle: boolean;
}

const EMPTY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

export class S3Storage implements AttachmentStorage {
  readonly kind = 's3' as const;
  constructor(private readonly s: S3Settings) {}

  private urlOf(key: string, query = ''): URL {
    const base = new URL(this.s.endpoint);
    const path = key === '' ? '' : `/${key.split('/').map(encodeURIComponent).join('/')}`;
    if (this.s.pathStyle) return new URL(`${base.origin}/${this.s.bucket}${path}${query}`);
    return new URL(`${base.protocol}//${this.s.bucket}.${base.host}${path}${query}`);
  }

  private async send(
    method: string,
    url: URL,
    body?: { file: string; size: number; sha256: string; mimeType: string },
  ): Promise<IncomingMessage> {
    const signer = new AwsV4Signer({
      url: url.toString(),
      method,
      headers: {
        'x-amz-content-sha256': body?.sha256 ?? EMPTY_SHA256,
        ...(body ? { 'content-type': body.mimeType, 'content-length': String(body.size) } : {}),
      },
      accessKeyId: this.s.accessKeyId,
      secretAccessKey: this.s.secretAccessKey,
      region: this.s.region,
      service: 's3',
    });
    const signed = await signer.sign();
    const headers = Object.fromEntries(signed.headers.entries());
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise((resolve, reject) => {
      const req = send(signed.url, { method, headers }, resolve);
      req.on('error', reject);
      if (body) createReadStream(body.file).on('error', reject).pipe(req);
      else req.end();
    });
  }

  private static async fail(res: IncomingMessage, what: string): Promise<never> {
    let text = '';
    for await (const chunk of res) if (text.length < 2000) text += String(chunk);
    const code = /<Code>([^<]{1,80})<\/Code>/.exec(text)?.[1] ?? '';
    throw new Error(`S3 ${what}: HTTP ${res.statusCode} ${code}`.trim());
  }

  async put(key: string, body: Readable, mimeType: string): Promise<void> {
    const file = join(tmpdir(), `marginalia-upload-${randomBytes(12).toString('hex')}`);
    try {
      const hash = createHash('sha256');
      const tap = new PassThrough();
      tap.on('data', (chunk: Buffer) => hash.update(chunk));
      await pipeline(body, tap, createWriteStream(file, { flags: 'wx', mode: 0o600 }));
      const { size } = await stat(file);
      const res = await this.send('PUT', this.urlOf(checkedKey(key)), { file, size, sha256: hash.digest('hex'), mimeType });
      if (res.statusCode !== 200) await S3Storage.fail(res, 'PUT');
      res.resume();
    } finally {
      await rm(file, { force: true });
    }
  }

  async get(key: string): Promise<Readable | null> {
    const res = await this.send('GET', this.urlOf(checkedKey(key)));
    if (res.statusCode === 404) {
      res.resume();
      return null;
    }
    if (res.statusCode !== 200) await S3Storage.fail(res, 'GET');
    return res;
  }

  async remove(key: string): Promise<void> {
    const res = await this.send('DELETE', this.urlOf(checkedKey(key)));
    if (res.statusCode !== 204 && res.statusCode !== 200 && res.statusCode !== 404) await S3Storage.fail(res, 'DELETE');
    res.resume();
  }

  async list(): Promise<string[]> {
    const keys: string[] = [];
    let token: string | null = null;
    do {
      const query: string = `?list-type=2${token ? `&continuation-token=${encodeURIComponent(token)}` : ''}`;
      const res = await this.send('GET', this.urlOf('', query));
      if (res.statusCode !== 200) await S3Storage.fail(res, 'LIST');
      let xml = '';
      for await (const chunk of res) xml += String(chunk);
      for (const m of xml.matchAll(/<Key>([^<]*)<\/Key>/g)) keys.push(m[1]!);
      token = /<IsTruncated>true<\/IsTruncated>/.test(xml) ? (/<NextContinuationToken>([^<]*)</.exec(xml)?.[1] ?? null) : null;
    } while (token);
    return keys.sort();
  }
}
