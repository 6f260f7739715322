// The reading side of `marginalia import` (docs/operations.md, "Importing"): a client of any server that speaks
// this wire format (the original service, or another Marginalia). The URL is the operator's own, named on the
// command line: that is the feature, so it is fetched, but never followed to another host, never without a
// timeout, and never faster than the rate asked for.

export class SourceError extends Error {}

/**
 * The source has no such read on either version (404 or 501): an extension of Marginalia's that another server
 * lacks (organizations/usergroups/get), which the copy may go on without.
 */
export class NotServed extends SourceError {}

/** The defaults of MARGINALIA_IMPORT_* (src/config/): gentle toward a hosted service, quick against a local one. */
export const DEFAULT_IMPORT_CONCURRENCY = 4;
export const DEFAULT_IMPORT_RATE = 20;
export const DEFAULT_IMPORT_TIMEOUT_MS = 30_000;
export const DEFAULT_IMPORT_ATTEMPTS = 5;

export interface SourceOptions {
  baseUrl: string;
  apiKey: string;
  authToken: string;
  /** Most requests in flight at once. */
  concurrency: number;
  /** Most requests started per second. */
  rate: number;
  timeoutMs: number;
  /** Attempts of one request on 429, 5xx or a network failure, the first included. */
  attempts: number;
  /** For tests: what waiting means (the backoff, the rate's spacing). */
  sleep?: (ms: number) => Promise<void>;
}

const sleepFor = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The first backoff after a refusal; each next one doubles, up to BACKOFF_MAX_MS (a Retry-After wins when longer). */
const BACKOFF_MS = 500;
const BACKOFF_MAX_MS = 30_000;

export function backoffMs(attempt: number, retryAfter: string | null): number {
  const doubled = Math.min(BACKOFF_MS * 2 ** attempt, BACKOFF_MAX_MS);
  const asked = retryAfter !== null && /^\d+$/.test(retryAfter) ? Number(retryAfter) * 1000 : 0;
  return Math.min(Math.max(doubled, asked), BACKOFF_MAX_MS * 2);
}

/** The base URL as given, checked: http or https, no credentials in it, no query; without its trailing slash. */
export function sourceBase(given: string): URL {
  let url: URL;
  try {
    url = new URL(given);
  } catch {
    throw new SourceError(`--from ${given} is not a URL (say e.g. https://api.example.com).`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new SourceError(`--from needs an http or https URL, not ${given}.`);
  if (url.username || url.password) throw new SourceError('--from must not carry credentials: give --api-key and --auth-token.');
  url.search = '';
  url.hash = '';
  url.pathname = url.pathname.replace(/\/+$/, '');
  return url;
}

/** One request slot at a time: at most `concurrency` in flight, started at least 1000/rate ms apart. */
class Gate {
  private inFlight = 0;
  private readonly waiting: (() => void)[] = [];
  private nextStart = 0;

  constructor(
    private readonly concurrency: number,
    private readonly spacingMs: number,
    private readonly sleep: (ms: number) => Promise<void>,
  ) {}

  async enter(): Promise<void> {
    if (this.inFlight >= this.concurrency) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.inFlight++;
    const now = Date.now();
    const at = Math.max(now, this.nextStart);
    this.nextStart = at + this.spacingMs;
    if (at > now) await this.sleep(at - now);
  }

  leave(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.inFlight--;
  }
}

export type Version = 'v1' | 'v2';

export class Source {
  readonly base: URL;
  private readonly gate: Gate;
  private readonly sleep: (ms: number) => Promise<void>;
  /** Requests sent, retries included: what the rate limits. */
  requests = 0;

  constructor(private readonly options: SourceOptions) {
    this.base = sourceBase(options.baseUrl);
    this.sleep = options.sleep ?? sleepFor;
    this.gate = new Gate(Math.max(1, options.concurrency), 1000 / Math.max(0.001, options.rate), this.sleep);
  }

  /** The result's data (and pageToken) of one operation, retried on 429, 5xx and network failures. */
  async call(version: Version, path: string, data: object): Promise<{ data: unknown; pageToken?: string; status: number }> {
    // Under the base's own path (a server behind a prefix), never a path that could name another host.
    const url = new URL(`${this.base.pathname.replace(/\/+$/, '')}/${version}/${path}`, this.base.origin);
    for (let attempt = 0; ; attempt++) {
      await this.gate.enter();
      let response: Response;
      let body: string;
      try {
        this.requests++;
        response = await fetch(url, {
          method: 'POST',
          // A redirect could carry the key and token to another host: it is an error, never followed.
          redirect: 'manual',
          signal: AbortSignal.timeout(this.options.timeoutMs),
          headers: {
            'content-type': 'application/json',
            'x-service-api-key': this.options.apiKey,
            'x-service-auth-token': this.options.authToken,
          },
          body: JSON.stringify({ data }),
        });
        body = await response.text();
      } catch (err) {
        this.gate.leave();
        if (attempt + 1 >= this.options.attempts) throw new SourceError(`${url.href}: ${(err as Error).message}`);
        await this.sleep(backoffMs(attempt, null));
        continue;
      }
      this.gate.leave();
      const { status } = response;
      if ((status === 429 || status >= 500) && status !== 501 && attempt + 1 < this.options.attempts) {
        await this.sleep(backoffMs(attempt, response.headers.get('retry-after')));
        continue;
      }
      if (status >= 300 && status < 400)
        throw new SourceError(
          `${url.href} answered a redirect (${status}) to ${response.headers.get('location')}: not followed.`,
        );
      if (status === 401) throw new SourceError(`The source refused the API key or auth token (401 from ${url.href}).`);
      if (status === 403) throw new SourceError(`The source denied ${path} (403): ${errorMessage(body)}`);
      // A page the source does not have: the caller may fall back to v1.
      if (status === 404 || status === 501) return { data: null, status };
      if (status !== 200) throw new SourceError(`${url.href} answered ${status}: ${errorMessage(body)}`);
      let parsed: { result?: { data?: unknown; pageToken?: string; nextPageToken?: string } };
      try {
        parsed = JSON.parse(body);
      } catch {
        throw new SourceError(`${url.href} answered 200 with a body that is not JSON.`);
      }
      if (!parsed.result) throw new SourceError(`${url.href} answered 200 without a result.`);
      // Some /v2 pages name the next page's token nextPageToken (docs/api.md, "Version 2").
      const next = parsed.result.pageToken ?? parsed.result.nextPageToken;
      return { data: parsed.result.data, status, ...(next ? { pageToken: next } : {}) };
    }
  }

  /** /v2 where the source answers it (not 404 or 501), else v1: asked once per path. */
  private readonly versions = new Map<string, Version>();

  async read(path: string, data: object, only?: Version): Promise<{ data: unknown; pageToken?: string }> {
    const known = only ?? this.versions.get(path);
    if (known) return this.must(known, path, data);
    const v2 = await this.call('v2', path, data);
    if (v2.status === 200) {
      this.versions.set(path, 'v2');
      return v2;
    }
    this.versions.set(path, 'v1');
    return this.must('v1', path, data);
  }

  private async must(version: Version, path: string, data: object) {
    const got = await this.call(version, path, data);
    if (got.status !== 200) throw new NotServed(`The source has no /${version}/${path} (${got.status}).`);
    return got;
  }

  /** Every item of a paged read, page after page (docs/api.md, "Paging"). */
  async *pages<T>(path: string, data: object, pageSize: number, only?: Version): AsyncGenerator<T[]> {
    let pageToken: string | undefined;
    do {
      const got = await this.read(path, { ...data, pageSize, ...(pageToken ? { pageToken } : {}) }, only);
      yield (Array.isArray(got.data) ? got.data : []) as T[];
      pageToken = got.pageToken;
    } while (pageToken);
  }

  async all<T>(path: string, data: object, pageSize: number, only?: Version): Promise<T[]> {
    const items: T[] = [];
    for await (const page of this.pages<T>(path, data, pageSize, only)) items.push(...page);
    return items;
  }
}

function errorMessage(body: string): string {
  try {
    const parsed = JSON.parse(body) as { error?: { message?: string } };
    if (parsed.error?.message) return parsed.error.message;
  } catch {}
  return body.slice(0, 200);
}
