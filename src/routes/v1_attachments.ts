// Attachments (docs/api.md, "Attachments"): POST /v1|v2/attachments/upload takes one file, as a raw body (its
// Content-Type the file's, the name in `name`) or as multipart/form-data (its first file part), streamed to storage;
// GET /v1|v2/attachments/:attachmentId serves it back, as an attachment, never inline. Both take the server
// credentials or an end-user token (the download also as `token` in the query, as the event stream does).
import multipart from '@fastify/multipart';
import type { Readable } from 'node:stream';
import { Type } from 'typebox';
import { contentDisposition } from '../domain/attachments.js';
import { ApiError, invalid } from '../errors.js';
import { queryableTokenOf } from '../http/auth.js';
import { allowTenantOrigin, originRefused } from '../http/cors.js';
import type { App } from '../http/types.js';
import { MAX_END_USER_TOKEN_LENGTH } from '../schemas/auth.js';
import { Id } from '../schemas/common.js';
import { openDownload, uploadAttachment } from '../services/attachments.js';
import type { Services } from '../services/context.js';
import { denied, type EndUser, endUserOf } from '../services/end-users.js';
import { authenticateEndUser } from '../services/end-user-tokens.js';

export const UPLOAD_PATHS = ['/v1/attachments/upload', '/v2/attachments/upload'] as const;
export const DOWNLOAD_PATHS = ['/v1/attachments/:attachmentId', '/v2/attachments/:attachmentId'] as const;
export const UPLOADED = 'Attachment uploaded.';

const UploadQuery = Type.Object(
  {
    organizationId: Type.Optional(Id),
    documentId: Type.Optional(Id),
    name: Type.Optional(
      Type.String({ maxLength: 1024, description: 'The file name (raw bodies; a multipart file part names its own).' }),
    ),
  },
  { additionalProperties: false },
);

const DownloadQuery = Type.Object(
  {
    token: Type.Optional(
      Type.String({ minLength: 1, maxLength: MAX_END_USER_TOKEN_LENGTH, description: 'An end-user token (auth/token/get).' }),
    ),
  },
  { additionalProperties: false },
);

const DownloadParams = Type.Object({ attachmentId: Type.String({ pattern: '^[1-9][0-9]{0,14}$' }) });

/** The end user a download's token names (header or query), once verified; set before validation. */
const downloaders = new WeakMap<object, { tenantId: string; user: EndUser }>();

export async function register(app: App, services: Services, maxBytes: number): Promise<void> {
  // Bodies other than JSON reach these routes as the request stream itself, unread: the upload streams it.
  app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
  // One byte over the limit: busboy cuts a file there silently, and the upload's own count then refuses it (413).
  await app.register(multipart, { limits: { fileSize: maxBytes + 1, files: 1, fields: 10, parts: 12, fieldSize: 1024 } });

  for (const url of UPLOAD_PATHS) {
    app.post(
      url,
      {
        config: { endUsers: true },
        schema: {
          summary: 'Upload a file to attach to a comment (extension)',
          tags: ['attachments'],
          querystring: UploadQuery,
        },
      },
      async (request, reply) => {
        const q = request.query;
        let file: { body: Readable; name: string | null; mimeType: string | undefined };
        const fields: Record<string, string> = {};
        if (request.isMultipart()) {
          const part = await request.file();
          if (!part) throw invalid('The multipart body has no file part.');
          for (const [k, v] of Object.entries(part.fields)) {
            const field = Array.isArray(v) ? v[0] : v;
            if (field && field.type === 'field' && typeof field.value === 'string') fields[k] = field.value;
          }
          file = { body: part.file, name: part.filename, mimeType: part.mimetype };
        } else {
          const body = request.body as unknown;
          if (!body || typeof (body as Readable).pipe !== 'function')
            throw new ApiError('INVALID_ARGUMENT', 'The upload is a raw body of the file’s own type, or multipart/form-data.', {
              httpStatus: 415,
            });
          file = { body: body as Readable, name: q.name ?? null, mimeType: request.headers['content-type'] };
        }
        const answer = await uploadAttachment(services, request.tenant!.id, request.endUser, {
          organizationId: q.organizationId ?? fields.organizationId ?? null,
          documentId: q.documentId ?? fields.documentId ?? '',
          name: file.name,
          mimeType: file.mimeType,
          body: file.body,
        });
        return reply.send({ result: { status: 'success', message: UPLOADED, data: answer } });
      },
    );
  }

  for (const url of DOWNLOAD_PATHS) {
    app.get(
      url,
      {
        config: { endUserToken: true },
        preValidation: async (request, reply) => {
          if (request.tenant) return;
          const token = queryableTokenOf(request);
          const { tenant, claims } = await authenticateEndUser(services, token);
          if (!(await allowTenantOrigin(services.store, tenant.id, request, reply)))
            throw denied(originRefused(request.headers.origin));
          downloaders.set(request, { tenantId: tenant.id, user: endUserOf(claims) });
        },
        schema: {
          summary: 'Download an attached file (extension)',
          tags: ['attachments'],
          params: DownloadParams,
          querystring: DownloadQuery,
        },
      },
      async (request, reply) => {
        const who = downloaders.get(request);
        const tenantId = request.tenant?.id ?? who!.tenantId;
        const { attachment: a, body } = await openDownload(
          services,
          tenantId,
          who?.user ?? null,
          Number(request.params.attachmentId),
        );
        const etag = `"${a.sha256}"`;
        reply
          .header('content-type', a.mimeType)
          .header('content-disposition', contentDisposition(a.name))
          .header('x-content-type-options', 'nosniff')
          .header('content-security-policy', "default-src 'none'; sandbox")
          .header('cache-control', 'private, no-cache')
          .header('etag', etag);
        if (request.headers['if-none-match'] === etag) {
          body.destroy();
          return reply.code(304).send();
        }
        return reply.header('content-length', String(a.size)).send(body);
      },
    );
  }
}
