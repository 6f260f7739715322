// The one place where a failure becomes a response. Our ApiErrors, Fastify's validation, body-parse
// and size errors, store outages and plain bugs all leave here in the envelope of docs/api.md "Wire format"; a
// bug's details go to the log with the request id, never to the caller.
import { Refusal } from '../domain/refusal.js';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, invalid, PartialSuccess } from '../errors.js';
import type { ErrorBody } from '../schemas/responses.js';
import { StoreUnavailableError, type UnavailableReason } from '../store/store.js';
import { validationMessage, type ValidationIssue } from './validation-message.js';

export function errorBody(err: ApiError): ErrorBody {
  return { error: { message: err.message, status: err.code, ...(err.details === undefined ? {} : { details: err.details }) } };
}

/** Requests answered with a documented partial success (errors.ts), which /metrics counts apart from faults. */
const partial = new WeakSet<FastifyRequest>();
export const answeredPartially = (request: FastifyRequest): boolean => partial.has(request);

/** What a caller is told for each way the database can be unavailable, and when to come back. */
const UNAVAILABLE_ANSWERS: Readonly<Record<UnavailableReason, { message: string; retryAfter?: string }>> = {
  unreachable: { message: 'The database is unavailable; try again shortly.', retryAfter: '1' },
  busy: { message: 'The database is busy; try again shortly.', retryAfter: '1' },
  storage_full: {
    message: 'The database storage is full, so writes are refused until the operator frees space; reads still work.',
    retryAfter: '30',
  },
  read_only: {
    message: 'The database accepts no writes right now (it is read-only); reads still work. Try again shortly.',
    retryAfter: '5',
  },
  damaged: {
    message:
      'The database file is damaged; the operator has been told. Writes, and reads of the damaged data, fail until it is repaired.',
  },
  // Only /readyz says it, with MARGINALIA_SQLITE_READY_AFTER_CHECK: requests are served meanwhile.
  checking: { message: 'checking: the database file is being checked for damage after start.', retryAfter: '5' },
};

export function unavailable(err: StoreUnavailableError): ApiError {
  const { message, retryAfter } = UNAVAILABLE_ANSWERS[err.reason];
  return new ApiError('UNAVAILABLE', message, retryAfter ? { headers: { 'retry-after': retryAfter } } : {});
}

export function toApiError(err: FastifyError | Error, request: FastifyRequest, bodyLimit: number): ApiError {
  if (err instanceof ApiError) return err;
  if (err instanceof Refusal) return new ApiError(err.code, err.message);
  if (err instanceof StoreUnavailableError) return unavailable(err);
  const fe = err as FastifyError & { validation?: ValidationIssue[]; validationContext?: string };
  if (fe.validation && fe.validation.length > 0) return invalid(validationMessage(fe.validation[0]!, fe.validationContext));
  switch (fe.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError('INVALID_ARGUMENT', `The request body is larger than ${bodyLimit} bytes.`, { httpStatus: 413 });
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return invalid('Content-Type must be application/json.');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return invalid('The Content-Length header does not match the body.');
    default:
  }
  if (typeof fe.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500)
    return invalid('The request is malformed.');
  request.log.error({ err }, 'unhandled error');
  return new ApiError('INTERNAL', `Internal error. Request id: ${request.id}`);
}

/**
 * The answer to an error met after the route's answer was made (onSend), where the error handler
 * cannot run again: its status and headers set on the reply, and its body.
 */
export function errorPayload(err: unknown, request: FastifyRequest, reply: FastifyReply): string {
  const api = toApiError(err as Error, request, 0);
  reply.code(api.httpStatus).headers(api.headers).type('application/json; charset=utf-8');
  return JSON.stringify(errorBody(api));
}

export function errorHandler(bodyLimit: number) {
  return function handle(err: FastifyError | Error, request: FastifyRequest, reply: FastifyReply) {
    const api = toApiError(err, request, bodyLimit);
    // A bug was logged by toApiError; a documented partial success is an answer, logged as none, and so
    // is a page this server does not have (UNIMPLEMENTED): the caller asked for it, nothing failed.
    if (api instanceof PartialSuccess) partial.add(request);
    else if (api.httpStatus >= 500 && api.code !== 'INTERNAL' && api.code !== 'UNIMPLEMENTED')
      request.log.warn({ code: api.code }, api.message);
    reply.code(api.httpStatus).headers(api.headers).send(errorBody(api));
  };
}
