// A tenant's content: organizations -> documents -> threads, paged as the API pages them; search (services/search.ts);
// moderation, which deletes a comment or a whole thread through the same services as comments/delete and
// commentannotations/delete, so events, webhooks and the search index follow; an organization's notifications;
// and erasure jobs (personal data) looked up by their id.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { invalid } from '../../errors.js';
import type { App } from '../../http/types.js';
import { MAX_ID_LENGTH } from '../../schemas/common.js';
import { getAnnotations, deleteAnnotations } from '../../services/annotations.js';
import { deleteComments } from '../../services/comments.js';
import type { Caller } from '../../services/context.js';
import { tenantById } from '../../services/operator-keys.js';
import { getDocuments } from '../../services/documents.js';
import { getNotifications } from '../../services/notifications.js';
import { getOrganizations } from '../../services/organizations.js';
import { erasureStatus, listErasureJobs } from '../../services/personal-data.js';
import { searchText } from '../../services/search.js';
import { type AdminDeps, contextOf, failureOf, sendPage } from '../console.js';
import { adminPath, html, isoTime, type Markup, query, raw } from '../html.js';
import { button, type PageContext, page } from '../layout.js';

/** Rows a console page lists at once. */
const PAGE_SIZE = 50;
const THREADS_PER_PAGE = 20;

type Params = { tenantId: string; organizationId?: string; documentId?: string; annotationId?: string; commentId?: string };
type Query = Record<string, string | undefined>;
type Request = FastifyRequest<{ Params: Params; Querystring: Query }>;

/** An id from a path or query, bounded as the API bounds ids. */
function id(value: string | undefined, what: string): string {
  if (value === undefined || value === '' || value.length > MAX_ID_LENGTH)
    throw invalid(`${what} must be 1 to ${MAX_ID_LENGTH} characters.`);
  return value;
}

const pageToken = (q: Query) => (q.page ? { pageToken: q.page } : {});
const nextLink = (path: string, q: Query, token: string | null) =>
  token ? html`<p><a href="${path}${query({ ...q, page: token })}">Next page</a></p>` : '';

interface View {
  title: string;
  body: Markup;
}

async function organizationsView(deps: AdminDeps, caller: Caller, q: Query): Promise<View> {
  const { organizations, nextPageToken } = await getOrganizations(deps.services, caller, {
    pageSize: PAGE_SIZE,
    ...pageToken(q),
  });
  const at = (o: string, ...rest: string[]) => adminPath('tenants', caller.id, 'organizations', o, ...rest);
  const rows = organizations.map(
    (
      o,
    ) => html`<tr><td><a href="${at(o.id)}">${o.id}</a></td><td>${o.organizationName}</td><td>${o.disabled ? 'disabled' : ''}</td>
<td><a href="${at(o.id, 'notifications')}">Notifications</a> <a href="${at(o.id, 'search')}">Search</a></td></tr>`,
  );
  return {
    title: 'Organizations',
    body: html`<table><thead><tr><th>Id</th><th>Name</th><th></th><th></th></tr></thead><tbody>${rows}</tbody></table>
${nextLink(adminPath('tenants', caller.id, 'organizations'), q, nextPageToken)}`,
  };
}

async function documentsView(deps: AdminDeps, caller: Caller, org: string, q: Query): Promise<View> {
  const found = await getDocuments(deps.services, caller, { organizationId: org, pageSize: PAGE_SIZE, ...pageToken(q) });
  const base = adminPath('tenants', caller.id, 'organizations', org);
  const rows = found.documents.map(
    (d) => html`<tr><td><a href="${base}/documents/${encodeURIComponent(d.id)}">${d.id}</a></td><td>${d.documentName}</td></tr>`,
  );
  return {
    title: `Documents of ${org}`,
    body: html`<p><a href="${base}/notifications">Notifications</a> · <a href="${base}/search">Search</a></p>
<table><thead><tr><th>Id</th><th>Name</th></tr></thead><tbody>${rows}</tbody></table>${nextLink(base, q, found.nextPageToken)}`,
  };
}

interface ShownComment {
  commentId?: number;
  commentText?: string;
  from?: { userId?: string; name?: string };
  createdAt?: number;
}
interface ShownThread {
  annotationId: string;
  comments?: ShownComment[];
  status?: { name?: string };
  createdAt?: number;
}

async function threadsView(deps: AdminDeps, caller: Caller, ctx: PageContext, org: string, doc: string, q: Query): Promise<View> {
  const answer = await getAnnotations(deps.services, caller, {
    organizationId: org,
    documentId: doc,
    pageSize: THREADS_PER_PAGE,
    ...pageToken(q),
  });
  const threads = JSON.parse(answer.data.toString('utf8')) as ShownThread[];
  const base = adminPath('tenants', caller.id, 'organizations', org, 'documents', doc);
  const shown = threads.map((t) => {
    const at = `${base}/threads/${encodeURIComponent(t.annotationId)}`;
    const comments = (t.comments ?? []).map(
      (
        c,
      ) => html`<div class="comment"><strong>${c.from?.name || c.from?.userId || ''}</strong> <small class="muted">#${c.commentId}
${isoTime(c.createdAt)}</small><p>${c.commentText ?? ''}</p>
${button(ctx, `${at}/comments/${c.commentId}/delete`, 'Delete comment', {}, true)}</div>`,
    );
    return html`<section class="thread"><h3>Thread ${t.annotationId} <small class="muted">${t.status?.name ?? ''}</small></h3>
${comments}${button(ctx, `${at}/delete`, 'Delete thread', {}, true)}</section>`;
  });
  return {
    title: `Threads of ${doc}`,
    body: html`<p><a href="${adminPath('tenants', caller.id, 'organizations', org)}">Documents of ${org}</a></p>
${threads.length === 0 ? html`<p class="muted">No threads.</p>` : shown}${nextLink(base, q, answer.nextPageToken)}`,
  };
}

async function searchView(deps: AdminDeps, caller: Caller, org: string, q: Query): Promise<View> {
  const base = adminPath('tenants', caller.id, 'organizations', org);
  const form = html`<form method="get" action="${base}/search" class="row"><label>Words <input name="q" value="${q.q ?? ''}"
 required></label><button type="submit">Search</button></form>`;
  if (!q.q) return { title: `Search in ${org}`, body: form };
  const { hits, nextPageToken } = await searchText(deps.services, caller, {
    organizationId: org,
    query: q.q,
    pageSize: Math.min(PAGE_SIZE, deps.services.search?.maxPageSize ?? PAGE_SIZE),
    ...pageToken(q),
  });
  const docLink = (d: string | null) => (d ? html`<a href="${base}/documents/${encodeURIComponent(d)}">${d}</a>` : '');
  const rows = hits.map(
    (h) => html`<tr><td>${h.kind}</td><td>${docLink(h.documentId)}</td>
<td>${h.userId}</td><td>${isoTime(h.time)}</td><td>${raw(h.snippet)}</td></tr>`,
  );
  return {
    title: `Search in ${org}`,
    body: html`${form}<table><thead><tr><th>Kind</th><th>Document</th><th>User</th><th>Time</th><th>Text</th></tr></thead>
<tbody>${rows}</tbody></table>${nextLink(`${base}/search`, q, nextPageToken)}`,
  };
}

interface ShownNotification {
  id?: string;
  actionUser?: { userId?: string };
  displayHeadlineMessageTemplate?: string;
  timestamp?: number;
  metadata?: { documentId?: string };
}

async function notificationsView(deps: AdminDeps, caller: Caller, org: string, q: Query): Promise<View> {
  const base = adminPath('tenants', caller.id, 'organizations', org);
  const form = html`<form method="get" action="${base}/notifications" class="row">
<label>User id <input name="user" value="${q.user ?? ''}"></label>
<label>or document id <input name="document" value="${q.document ?? ''}"></label>
<button type="submit">Show</button></form>`;
  if (!q.user && !q.document) return { title: `Notifications in ${org}`, body: form };
  const answer = await getNotifications(deps.services, caller, {
    organizationId: org,
    ...(q.user ? { userId: id(q.user, 'The user id') } : {}),
    ...(q.document ? { documentId: id(q.document, 'The document id') } : {}),
    pageSize: PAGE_SIZE,
    ...pageToken(q),
  });
  const items = JSON.parse(answer.notificationsJson) as ShownNotification[];
  const rows = items.map(
    (n) => html`<tr><td>${n.id ?? ''}</td><td>${isoTime(n.timestamp)}</td><td>${n.actionUser?.userId ?? ''}</td>
<td>${n.metadata?.documentId ?? ''}</td><td>${n.displayHeadlineMessageTemplate ?? ''}</td></tr>`,
  );
  return {
    title: `Notifications in ${org}`,
    body: html`${form}<table><thead><tr><th>Id</th><th>Time</th><th>By</th><th>Document</th><th>Headline</th></tr></thead>
<tbody>${rows}</tbody></table>${nextLink(`${base}/notifications`, q, answer.nextPageToken)}`,
  };
}

async function erasureView(deps: AdminDeps, caller: Caller, q: Query): Promise<View> {
  const base = adminPath('tenants', caller.id, 'erasure');
  const form = html`<form method="get" action="${base}" class="row">
<label>Job id <input name="job" value="${q.job ?? ''}" required></label><button type="submit">Look up</button></form>
<p class="muted">Jobs are made by users/data/delete and <code>marginalia users erase</code>; each runs to its end before
it answers, so every job listed is complete.</p>`;
  if (q.job) {
    const job = await erasureStatus(deps.services, caller, { jobId: id(q.job, 'The job id') });
    return {
      title: 'Erasure jobs',
      body: html`${form}<table><tr><th>Job</th><td>${q.job}</td></tr>
<tr><th>State</th><td>${job.isDeleteCompleted ? 'complete' : `${job.tasksLeft} tasks left`}</td></tr>
<tr><th>Completed</th><td>${isoTime(job.lastTaskCompletedTime)}</td></tr></table>`,
    };
  }
  const before = q.before ? id(q.before, 'The page') : null;
  const jobs = await listErasureJobs(deps.services, caller, before, PAGE_SIZE);
  const rows = jobs.map(
    (j) => html`<tr><td><a href="${base}${query({ job: j.jobId })}">${j.jobId}</a></td><td>complete</td><td>${j.tasksCount}</td>
<td>${isoTime(j.completedAt)}</td></tr>`,
  );
  const older =
    jobs.length === PAGE_SIZE ? html`<p><a href="${base}${query({ before: jobs.at(-1)!.jobId })}">Older jobs</a></p>` : '';
  return {
    title: 'Erasure jobs',
    body: html`${form}<table><thead><tr><th>Job</th><th>State</th><th>Tasks</th><th>Completed</th></tr></thead>
<tbody>${rows}</tbody></table>${older}`,
  };
}

export function registerContentPages(app: App, deps: AdminDeps): void {
  const { store } = deps.services;
  const hidden = { schema: { hide: true } };
  /** A page of the tenant the path names, or the error page of why it cannot be shown. */
  const showing =
    (view: (caller: Caller, request: Request, ctx: PageContext) => Promise<View>) =>
    async (request: Request, reply: FastifyReply, ctx: PageContext = contextOf(request), status = 200) => {
      try {
        const tenant = await tenantById(store, request.params.tenantId);
        const { title, body } = await view(tenant, request, ctx);
        const back = html`<p class="muted">Tenant <a href="${adminPath('tenants', tenant.id, 'organizations')}">${tenant.name}</a></p>`;
        return sendPage(reply, status, page(title, ctx, html`${back}${body}`));
      } catch (err) {
        const failure = failureOf(request, err);
        return sendPage(reply, failure.status, page('Not shown', contextOf(request, { error: failure.message }), ''));
      }
    };
  const org = (r: Request) => id(r.params.organizationId, 'The organization id');
  const doc = (r: Request) => id(r.params.documentId, 'The document id');
  const threads = showing((c, r, ctx) => threadsView(deps, c, ctx, org(r), doc(r), r.query));
  /** Moderation: the action, then the document's threads with what it did. */
  const moderating = (act: (caller: Caller, r: Request) => Promise<string>) => async (request: Request, reply: FastifyReply) => {
    let ctx: PageContext;
    let status = 200;
    try {
      const tenant = await tenantById(store, request.params.tenantId);
      ctx = contextOf(request, { notice: await act(tenant, request) });
    } catch (err) {
      const failure = failureOf(request, err);
      status = failure.status;
      ctx = contextOf(request, { error: failure.message });
    }
    // A form posts to the thread's path without a query: the threads shown are the first page.
    return threads(request, reply, ctx, status);
  };

  const base = '/admin/tenants/:tenantId';
  app.get(
    `${base}/organizations`,
    hidden,
    showing((c, r) => organizationsView(deps, c, r.query)),
  );
  app.get(
    `${base}/organizations/:organizationId`,
    hidden,
    showing((c, r) => documentsView(deps, c, org(r), r.query)),
  );
  app.get(`${base}/organizations/:organizationId/documents/:documentId`, hidden, threads);
  app.get(
    `${base}/organizations/:organizationId/search`,
    hidden,
    showing((c, r) => searchView(deps, c, org(r), r.query)),
  );
  app.get(
    `${base}/organizations/:organizationId/notifications`,
    hidden,
    showing((c, r) => notificationsView(deps, c, org(r), r.query)),
  );
  app.get(
    `${base}/erasure`,
    hidden,
    showing((c, r) => erasureView(deps, c, r.query)),
  );
  const thread = `${base}/organizations/:organizationId/documents/:documentId/threads/:annotationId`;
  app.post(
    `${thread}/delete`,
    hidden,
    moderating(async (caller, r) => {
      const annotationId = id(r.params.annotationId, 'The thread id');
      const done = await deleteAnnotations(deps.services, caller, {
        organizationId: org(r),
        documentId: doc(r),
        annotationIds: [annotationId],
      });
      if (!done[annotationId]?.success) throw invalid(done[annotationId]?.message ?? `Thread ${annotationId} was not deleted.`);
      return `Thread ${annotationId} deleted.`;
    }),
  );
  app.post(
    `${thread}/comments/:commentId/delete`,
    hidden,
    moderating(async (caller, r) => {
      const annotationId = id(r.params.annotationId, 'The thread id');
      const commentId = Number(r.params.commentId);
      if (!Number.isSafeInteger(commentId) || commentId < 0) throw invalid('The comment id is a whole number.');
      const done = await deleteComments(deps.services, caller, {
        organizationId: org(r),
        documentId: doc(r),
        annotationId,
        commentIds: [commentId],
      });
      const outcome = done[String(commentId)];
      if (!outcome?.success) throw invalid(outcome?.message ?? `Comment ${commentId} was not deleted.`);
      return `Comment ${commentId} of thread ${annotationId} deleted.`;
    }),
  );
}
