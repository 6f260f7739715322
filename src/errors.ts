// The one error type of the API. Everything that fails a request becomes an ApiError before it
// reaches the wire, so the envelope and the HTTP status always agree (docs/api.md, "Wire format").

import type { ErrorCode } from './schemas/error-codes.js';

export const HTTP_STATUS: Readonly<Record<ErrorCode, number>> = {
  INVALID_ARGUMENT: 400,
  UNAUTHENTICATED: 401,
  PERMISSION_DENIED: 403,
  NOT_FOUND: 404,
  ALREADY_EXISTS: 409,
  // gRPC's mapping, which the original service's pages follow: the request cannot apply in the state it finds.
  FAILED_PRECONDITION: 400,
  RESOURCE_EXHAUSTED: 429,
  INTERNAL: 500,
  // A page of the original service's other products, which a self-hosted server does not have (docs/api.md,
  // "Not available on a self-hosted server"): the caller's request, not a fault of ours.
  UNIMPLEMENTED: 501,
  UNAVAILABLE: 503,
};

export class ApiError extends Error {
  readonly code: ErrorCode;
  /** The HTTP status; differs from the code's own only for 413 and 405 (docs/api.md, "Wire format"). */
  readonly httpStatus: number;
  readonly headers: Readonly<Record<string, string>>;
  /** The envelope's optional `details` (docs/api.md, wire format); undefined: none. */
  readonly details: unknown;

  constructor(
    code: ErrorCode,
    message: string,
    opts: { httpStatus?: number; headers?: Record<string, string>; details?: unknown } = {},
  ) {
    // An ApiError is an answer, not a fault: nothing reads its stack, so none is captured (capturing
    // one walks the whole call stack on every 400, 401, 404 and 405).
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = limit;
    this.name = 'ApiError';
    this.code = code;
    this.httpStatus = opts.httpStatus ?? HTTP_STATUS[code];
    this.headers = opts.headers ?? {};
    this.details = opts.details;
  }
}

/**
 * A documented answer in the error envelope that is no fault: the original service's pages answer a
 * batch that did part of what it was asked (workspace/domains/add skipping domains it had) with 500
 * INTERNAL, its own message and `details`. The work it reports is committed. It is never logged as a
 * fault, and /metrics counts it apart (outcome "partial"): docs/decisions.md.
 */
export class PartialSuccess extends ApiError {
  constructor(message: string, details: Record<string, unknown>) {
    super('INTERNAL', message, { details });
    this.name = 'PartialSuccess';
  }
}

export const invalid = (message: string): ApiError => new ApiError('INVALID_ARGUMENT', message);

/** The one answer for every credential that does not check out, so callers cannot probe which part was wrong. */
export const BAD_CREDENTIALS = 'Invalid API key or auth token.';
