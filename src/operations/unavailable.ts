// The /v2 pages of the original service's other products, which a self-hosted data service cannot
// provide (docs/api.md, "Not available on a self-hosted server"): one table, by feature, with the reason.
// Each page is a route, so it is answered for what it is (501 UNIMPLEMENTED, after the credential check
// like every operation) rather than as an unknown path (404, which says "not yet"), and /openapi.json
// lists it. The body is never read: no operation runs behind these routes.
import { ApiError } from '../errors.js';
import type { App } from '../http/types.js';
import { unavailableAnswers } from '../schemas/responses.js';
import { pathOf } from './operation.js';

export interface UnavailableFeature {
  /** What the pages are, in /openapi.json's summary. */
  feature: string;
  /** Why a self-hosted server has none of them: "needs ...", "is ...". */
  reason: string;
  /** Their names under /v2, as the original service's pages give them. */
  names: readonly string[];
}

export const UNAVAILABLE: readonly UnavailableFeature[] = [
  {
    feature: 'AI agents',
    reason: "needs the original service's AI agents (their runs, versions, groups and prompts)",
    names: [
      'agents/analytics/get',
      'agents/config/resolve',
      'agents/create',
      'agents/delete',
      'agents/execution/count',
      'agents/execution/get',
      'agents/execution/list',
      'agents/execution/run',
      'agents/extract',
      'agents/get',
      'agents/groups/add-agents',
      'agents/groups/create',
      'agents/groups/delete',
      'agents/groups/get',
      'agents/groups/list',
      'agents/groups/remove-agents',
      'agents/groups/update',
      'agents/prompt/enhance',
      'agents/prompt/refine',
      'agents/prompt/validate',
      'agents/update',
      'agents/version/update',
      'agents/versions/list',
      'agents/versions/restore',
    ],
  },
  {
    feature: 'Memory',
    reason: "needs the original service's Memory (its AI over review judgments and ingested knowledge)",
    names: [
      'memory/alerts/action',
      'memory/alerts/config/get',
      'memory/alerts/config/update',
      'memory/alerts/dismiss',
      'memory/alerts/list',
      'memory/ask',
      'memory/judgments/query',
      'memory/knowledge/delete',
      'memory/knowledge/download',
      'memory/knowledge/ingest',
      'memory/knowledge/ingest-status',
      'memory/knowledge/list',
      'memory/knowledge/rules',
      'memory/knowledge/search',
      'memory/knowledge/update',
      'memory/knowledge/upload-url',
      'memory/patterns/get',
      'memory/profiles/get',
      'memory/search',
      'memory/stats/get',
      'memory/suggest',
    ],
  },
  {
    feature: 'CRDT editor state',
    reason: "needs the original service's multiplayer editing (the Yjs documents its editors sync)",
    names: ['crdt/add', 'crdt/get', 'crdt/update'],
  },
  {
    feature: 'Recordings',
    reason: "needs the original service's recorder (audio, video and screen recordings and their media)",
    names: ['recordings/get'],
  },
  {
    feature: 'AI rewriter',
    reason: "needs the original service's AI rewriter",
    names: ['rewriter/ask-ai'],
  },
  {
    feature: 'Console account',
    reason:
      "is the original service's console account (sign-up, login links, its workspaces): here the workspace is " +
      'this installation, and its credentials are made by the CLI (`marginalia workspace credentials`, `marginalia keys`)',
    names: ['workspace/create', 'workspace/get', 'workspace/email/send-login-link', 'workspace/email/status'],
  },
];

/** Every path of the table: /v2/<name>. */
export const UNAVAILABLE_PATHS: readonly string[] = UNAVAILABLE.flatMap(({ names }) => names.map((n) => pathOf('v2', n)));

/** The message of the 501 at `path` (the route's own path: nothing of the request is echoed). */
export const unavailableMessage = (path: string): string => `${path} is not available on a self-hosted server.`;

/** Adds a route per page of the table to `app` (the authenticated scope: the credentials are checked first). */
export function registerUnavailable(app: App): void {
  for (const { feature, reason, names } of UNAVAILABLE) {
    for (const name of names) {
      const url = pathOf('v2', name);
      const message = unavailableMessage(url);
      app.route({
        method: 'POST',
        url,
        schema: {
          // Not in /openapi.json: with all 54 listed, Swagger UI's /docs stops rendering a third of the way down
          // (each feature alone renders; agents and memory together do not). The tag says what they answer, and
          // docs/api.md lists them (docs/decisions.md).
          hide: true,
          summary: `Not available on a self-hosted server (${feature})`,
          description: `This page ${reason}. A self-hosted server answers it 501 UNIMPLEMENTED once the credentials pass.`,
          tags: ['unavailable'],
          response: unavailableAnswers(),
        },
        handler: () => {
          throw new ApiError('UNIMPLEMENTED', message);
        },
      });
    }
  }
}
