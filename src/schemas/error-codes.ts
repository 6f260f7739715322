// Every status an error answer can carry (docs/api.md, "Wire format"): the one list, which the error handler, the
// error-body schema, the OpenAPI document and the client all take. (Here among the schemas, which
// depend on nothing of the service, so the client package can ship it.)
export const ERROR_CODES = [
  'INVALID_ARGUMENT',
  'UNAUTHENTICATED',
  'PERMISSION_DENIED',
  'NOT_FOUND',
  'ALREADY_EXISTS',
  // A request refused because of the state it finds, not its own form (docs/api.md: advanced webhooks not enabled,
  // a workflow's version conflict, a step no longer waiting).
  'FAILED_PRECONDITION',
  'RESOURCE_EXHAUSTED',
  'INTERNAL',
  'UNIMPLEMENTED',
  'UNAVAILABLE',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];
