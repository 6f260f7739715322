// What a replay of the original service's examples plans per page (test/system/vendor-examples.test.ts):
// the data it writes first and how it compares the answer, with the writes several pages' plans share.
// Each feature's /v2 pages have their plans in test/system/vendor-plans/.
import type { Expectation, VendorExample } from './vendor-replay.js';

export const ORG = 'yourOrganizationId';
export const DOC = 'yourDocumentId';
export const USER = 'yourUserId';

/** What a setup writes with, and what it leaves for the example. */
export interface Context {
  /** The API key of the example's tenant (the workspace pages name it). */
  apiKey: string;
  /** POST {data} as this example's tenant; the answer must be a success. */
  call(path: string, data: Record<string, unknown>): Promise<any>;
  /** Strings of the example to replace (placeholders that cannot be real; undefined leaves the member out), each with why. */
  replace(placeholder: string, value: string | undefined, why: string): void;
}

export interface Plan {
  /**
   * Whose credentials the example is sent with: its tenant's (the default), or the workspace's (the
   * workspace pages: the replay makes them once per run and sends them under the vendor's header names).
   */
  credentials?: 'workspace';
  setup?: (ctx: Context, example: VendorExample, index: number) => Promise<void>;
  expect?: (example: VendorExample, index: number) => Expectation;
}

export const say = (text: string, userId = USER, extra: Record<string, unknown> = {}) => ({
  commentText: text,
  from: { userId, name: 'User Name', email: 'user@example.com' },
  ...extra,
});

/** A thread of `doc` (of no organization when `org` is null): at locationx, by yourUserId, with a color. */
export async function thread(
  ctx: Context,
  annotationId: string,
  org: string | null = ORG,
  doc = DOC,
  extra: Record<string, unknown> = {},
) {
  await ctx.call('/v1/commentannotations/add', {
    organizationId: org,
    documentId: doc,
    commentAnnotations: [
      {
        annotationId,
        locationId: 'locationx',
        color: '#00FF00',
        status: { id: 'OPEN', name: 'Open', color: '#0000FF', type: 'default' },
        commentData: [say('This is a sample comment text.')],
        ...extra,
      },
    ],
  });
}

export const users = (...ids: string[]) => ids.map((userId) => ({ userId, name: 'User Name', email: 'user@email.com' }));
