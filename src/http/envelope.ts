// The success envelope of SPEC 1. Extensions such as pageToken sit beside data inside result.
import type { FastifyReply } from 'fastify';

export interface SuccessEnvelope<T> {
  result: { status: 'success'; message: string; data: T } & Record<string, unknown>;
}

export function success<T>(message: string, data: T, extensions: Record<string, unknown> = {}): SuccessEnvelope<T> {
  return { result: { status: 'success', message, data, ...extensions } };
}

/**
 * Sends the same envelope around data that is JSON text already (reads written from rows): the bytes
 * JSON.stringify(success(message, data, extensions)) would give, with the content type Fastify gives
 * a serialized object.
 */
export function sendSuccessJson(
  reply: FastifyReply,
  message: string,
  dataJson: string,
  extensions: Record<string, string> = {},
): FastifyReply {
  let rest = '';
  for (const [key, value] of Object.entries(extensions)) rest += `,${JSON.stringify(key)}:${JSON.stringify(value)}`;
  return reply
    .type('application/json; charset=utf-8')
    .send(`{"result":{"status":"success","message":${JSON.stringify(message)},"data":${dataJson}${rest}}}`);
}
