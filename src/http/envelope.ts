// The success envelope of SPEC 1. Extensions such as pageToken sit beside data inside result.
export interface SuccessEnvelope<T> {
  result: { status: 'success'; message: string; data: T } & Record<string, unknown>;
}

export function success<T>(message: string, data: T, extensions: Record<string, unknown> = {}): SuccessEnvelope<T> {
  return { result: { status: 'success', message, data, ...extensions } };
}
