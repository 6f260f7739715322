// The one error type of the rules below the services (domain and store): a refusal, with the code of
// the contract it means and the message for the caller. It knows nothing of HTTP; the one error
// handler (http/error-handler.ts) answers it as the API error of that code (src/errors.ts).
import type { ErrorCode } from '../schemas/error-codes.js';

export class Refusal extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    // A refusal is an answer, not a fault: nothing reads its stack, so none is captured.
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = limit;
    this.name = 'Refusal';
  }
}

export const invalidArgument = (message: string): Refusal => new Refusal('INVALID_ARGUMENT', message);
