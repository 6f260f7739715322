// The success envelope of SPEC 1. Extensions such as pageToken sit beside data inside result.
export interface SuccessEnvelope<T> {
  result: { status: 'success'; message: string; data: T } & Record<string, unknown>;
}

export function success<T>(message: string, data: T, extensions: Record<string, unknown> = {}): SuccessEnvelope<T> {
  return { result: { status: 'success', message, data, ...extensions } };
}

/** The content type of every JSON answer (what Fastify gives a serialized object). */
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/**
 * The same envelope, as text, around data that is JSON text already (reads written from rows): the
 * bytes JSON.stringify(success(message, data, extensions)) would give.
 */
export function successJson(message: string, dataJson: string, extensions: Record<string, string> = {}): string {
  let rest = '';
  for (const [key, value] of Object.entries(extensions)) rest += `,${JSON.stringify(key)}:${JSON.stringify(value)}`;
  return `{"result":{"status":"success","message":${JSON.stringify(message)},"data":${dataJson}${rest}}}`;
}
