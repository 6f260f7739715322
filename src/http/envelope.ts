// The success envelope (docs/api.md, "Wire format"). Extensions such as pageToken sit beside data inside result.
import type { FastifyReply } from 'fastify';

export interface SuccessEnvelope<T> {
  result: { status: 'success'; message: string; data: T } & Record<string, unknown>;
}

export function success<T>(message: string, data: T, extensions: Record<string, unknown> = {}): SuccessEnvelope<T> {
  return { result: { status: 'success', message, data, ...extensions } };
}

/**
 * The answer of a page that prints its members inside `result` without status and message (the
 * approval workflow pages): the same one serializer sends it.
 */
export const bare = <T>(result: T): { result: T } => ({ result });

/**
 * Sends the same envelope around data that is JSON text already (reads written from rows), or its
 * UTF-8 bytes (a page held in memory): the bytes JSON.stringify(success(message, data, extensions))
 * would give, with the content type Fastify gives a serialized object.
 */
export function sendSuccessJson(
  reply: FastifyReply,
  message: string,
  dataJson: string | Buffer,
  extensions: Record<string, string> = {},
): FastifyReply {
  let rest = '';
  for (const [key, value] of Object.entries(extensions)) rest += `,${JSON.stringify(key)}:${JSON.stringify(value)}`;
  const head = `{"result":{"status":"success","message":${JSON.stringify(message)},"data":`;
  reply.type('application/json; charset=utf-8');
  if (typeof dataJson === 'string') return reply.send(`${head}${dataJson}${rest}}}`);
  return reply.send(Buffer.concat([Buffer.from(head), dataJson, Buffer.from(`${rest}}}`)]));
}
