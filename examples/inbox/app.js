// The page: one user's inbox with its unread badge, and the discussion of one document, kept live
// from Marginalia's event stream. It talks to Marginalia directly with an end-user token that its own
// backend (server.mjs, GET /token) hands it; it never sees the server credentials. Every text it
// shows goes through textContent: nothing from the API is ever parsed as HTML.
import { Marginalia } from '/marginalia.js';

const params = new URLSearchParams(location.search);
const user = params.get('user') || 'ana';
const org = params.get('org') || 'acme';
const doc = params.get('doc') || 'welcome';
/** The one thread of the document this page discusses in. */
const THREAD = 'discussion';

const $ = (id) => document.getElementById(id);
$('user').textContent = user;
$('org').textContent = org;
$('doc').textContent = doc;

/** Our backend's answer: a token for this user, and where Marginalia is. */
async function fetchToken() {
  const res = await fetch(`/token?${new URLSearchParams({ user, org })}`);
  if (!res.ok) throw new Error(`/token answered ${res.status}: ${await res.text()}`);
  return res.json();
}

// The token lasts 48 hours: ask the backend again after 24, so a page left open keeps a valid one
// for its calls and for the stream's reconnections.
let issued = await fetchToken();
let issuedAt = Date.now();
async function token() {
  if (Date.now() - issuedAt > 24 * 3600_000) {
    issued = await fetchToken();
    issuedAt = Date.now();
  }
  return issued.token;
}

const api = new Marginalia({ baseUrl: issued.marginaliaUrl, token });

function showError(err) {
  const el = $('error');
  el.hidden = false;
  el.textContent = err?.status ? `${err.status}: ${err.message}` : String(err?.message ?? err);
}

/** Runs `work` now, or once more after the run in progress when asked meanwhile: never two at once, never stale. */
function coalesced(work) {
  let running = null;
  let again = false;
  const run = async () => {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        try {
          await work();
        } catch (err) {
          showError(err);
        }
      } while (again);
      running = null;
    })();
    return running;
  };
  return run;
}

/** An element with its text (never HTML) and class. */
function el(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className) node.className = className;
  return node;
}

const when = (ms) => new Date(ms).toLocaleString();

/** A headline's `{name}` placeholders filled from its template data: users by their name. */
function headline(n) {
  const values = n.displayHeadlineMessageTemplateData ?? {};
  return String(n.displayHeadlineMessageTemplate ?? '').replace(/\{(\w+)\}/g, (whole, key) => {
    const v = values[key];
    if (v === undefined || v === null) return whole;
    if (typeof v === 'object') return v.name || v.userId || whole;
    return String(v);
  });
}

const refreshBadge = coalesced(async () => {
  const { data } = await api.notifications.count({ organizationId: org, userId: user });
  const badge = $('badge');
  badge.textContent = String(data.unread);
  badge.classList.toggle('some', data.unread > 0);
});

const refreshInbox = coalesced(async () => {
  const { data } = await api.notifications.get({ organizationId: org, userId: user, pageSize: 50 });
  const items = data.map((n) => {
    // By userId: true is unread, false read; an organization-wide one is listed once read.
    const unread = n.notifyUsersByUserId?.[user] !== false;
    const li = el('li', undefined, unread ? 'notification unread' : 'notification');
    li.dataset.id = n.id;
    li.append(el('div', headline(n), 'headline'));
    if (n.displayBodyMessage) li.append(el('div', n.displayBodyMessage, 'body'));
    li.append(el('div', `${n.actionUser?.name || n.actionUser?.userId || ''} · ${when(n.timestamp)}`, 'meta'));
    return li;
  });
  $('inbox').replaceChildren(...items);
  $('inbox-empty').hidden = items.length > 0;
});

const refreshThread = coalesced(async () => {
  const { data } = await api.comments.getAnnotations({ organizationId: org, documentId: doc });
  const comments = data.filter(Boolean).flatMap((thread) => thread.comments);
  comments.sort((a, b) => a.createdAt - b.createdAt);
  const items = comments.map((c) => {
    const li = el('li', undefined, 'comment');
    li.append(el('div', c.commentText, 'text'));
    li.append(el('div', `${c.from?.name || c.from?.userId || ''} · ${when(c.createdAt)}`, 'meta'));
    return li;
  });
  $('thread').replaceChildren(...items);
  $('thread-empty').hidden = items.length > 0;
});

/** A comment in the document's thread: the thread is made by the first comment, added to by the rest. */
async function comment(text) {
  const commentData = [{ commentText: text, from: { userId: user } }];
  const where = { organizationId: org, documentId: doc };
  try {
    await api.comments.add({ ...where, annotationId: THREAD, commentData });
  } catch (err) {
    if (err?.status !== 'NOT_FOUND') throw err;
    const { data } = await api.comments.addAnnotations({ ...where, commentAnnotations: [{ annotationId: THREAD, commentData }] });
    // Someone else made it meanwhile: add to theirs.
    if (!data[THREAD]?.success) await api.comments.add({ ...where, annotationId: THREAD, commentData });
  }
}

$('comment-form').addEventListener('submit', async (e) => {
  e.preventDefault();
  const box = $('comment-text');
  const text = box.value.trim();
  if (!text) return;
  const button = e.submitter;
  button.disabled = true;
  try {
    await comment(text);
    box.value = '';
    await refreshThread();
  } catch (err) {
    showError(err);
  } finally {
    button.disabled = false;
  }
});

$('mark-read').addEventListener('click', async () => {
  try {
    await api.notifications.markRead({ organizationId: org, userId: user });
    await Promise.all([refreshBadge(), refreshInbox()]);
  } catch (err) {
    showError(err);
  }
});

function setStream(state) {
  document.body.dataset.stream = state;
  $('stream').textContent = state;
}

/** The stream: what it says changed is read again (the events name what changed; a read shows it as it is now). */
async function follow() {
  const events = api.events.subscribe({
    organizationId: org,
    types: ['notification.*', 'comment.*', 'comment_annotation.*'],
    // Opened (again, after a reconnection): what happened while it was away is read again.
    onOpen: () => {
      setStream('open');
      refreshBadge();
      refreshInbox();
      refreshThread();
    },
  });
  try {
    for await (const event of events) {
      if (event.type.startsWith('notification.')) {
        refreshBadge();
        refreshInbox();
      } else if (event.documentId === doc) refreshThread();
    }
  } catch (err) {
    // A refusal that waiting does not end (a revoked token, 403): shown, not retried.
    setStream('refused');
    showError(err);
  }
}

refreshBadge();
refreshInbox();
refreshThread();
follow();
