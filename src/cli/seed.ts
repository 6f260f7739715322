// `marginalia seed --demo`: a small, realistic organization under a new tenant, written through the
// same services the API uses (so HTML is sanitized, ids assigned and profiles resolved exactly as for
// a caller), then credentials and curl commands to paste while the server runs.
import { systemClock } from '../clock.js';
import type { Config } from '../config/index.js';
import { updateAnnotations } from '../services/annotations.js';
import { addAnnotations, addComments, updateComments } from '../services/comments.js';
import type { Caller, Services } from '../services/context.js';
import { createTenant } from '../services/credentials.js';
import { markNotificationsRead } from '../services/inbox.js';
import { setNotificationConfig } from '../services/notification-settings.js';
import { addNotification } from '../services/notifications.js';
import { ProfileCache } from '../services/profiles.js';
import { ThreadPageCache } from '../services/thread-pages.js';
import { addUsers } from '../services/users.js';
import type { Store } from '../store/store.js';
import type { Io } from './commands.js';

const ORG = 'acme';
const DOC = 'roadmap-2027';
const CHECKLIST = 'launch-checklist';
const USERS = [
  { userId: 'ana', name: 'Ana Lima', email: 'ana@acme.example' },
  { userId: 'ben', name: 'Ben Okafor', email: 'ben@acme.example' },
  { userId: 'chloe', name: 'Chloé Martin', email: 'chloe@acme.example' },
  { userId: 'dev', name: 'Dev Patel', email: 'dev@acme.example' },
  { userId: 'eli', name: 'Eli Cohen', email: 'eli@acme.example' },
];
const comment = (userId: string, commentHtml: string) => ({ commentHtml, from: { userId } });

export async function seedDemo(store: Store, io: Io, config: Config): Promise<void> {
  const creds = await createTenant(store, systemClock, 'demo');
  const tenant = (await store.findCredentials(creds.apiKey))!.tenant;
  const caller: Caller = { id: tenant.id, apiKey: tenant.apiKey };
  // The demo's hour: each write five minutes after the one before, so threads and inboxes read in a
  // natural order (newest first) rather than all in one millisecond.
  let at = systemClock() - 60 * 60_000;
  const services: Services = {
    store,
    clock: () => (at += 5 * 60_000),
    limits: config.limits,
    bodyLimit: config.bodyLimit,
    profiles: new ProfileCache(store, config.profileCacheMb),
    threadPages: new ThreadPageCache(0),
  };

  await addUsers(services, caller, { organizationId: ORG, users: USERS });
  await addUsers(services, caller, { organizationId: ORG, documentId: DOC, users: USERS.slice(0, 4) });
  await addAnnotations(services, caller, {
    organizationId: ORG,
    documentId: DOC,
    commentAnnotations: [
      {
        annotationId: 'scope',
        locationId: 'section-1',
        commentData: [
          comment('ana', '<p>Should Q1 include the <b>mobile beta</b>, or only the web app?</p>'),
          comment('ben', '<p>Web first. Mobile needs the new sync API, which lands in Q2.</p>'),
        ],
      },
      {
        annotationId: 'pricing',
        locationId: 'section-4',
        commentData: [
          comment('chloe', '<p>The <i>Team</i> tier price is missing from this table.</p>'),
          comment('dev', '<p>Added: 12 € per seat. See <a href="https://acme.example/pricing">the pricing page</a>.</p>'),
          comment('ana', '<p>Thanks! Resolving once finance signs off.</p>'),
        ],
      },
    ],
  });
  const notify = (notificationId: string, actor: string, template: string, to: string[], annotationId: string) =>
    addNotification(services, caller, {
      organizationId: ORG,
      documentId: DOC,
      locationId: annotationId,
      notificationId,
      actionUser: { userId: actor },
      displayHeadlineMessageTemplate: template,
      displayHeadlineMessageTemplateData: { actor: { userId: actor }, document: 'Roadmap 2027' },
      notificationSourceData: { annotationId },
      notifyUsers: to.map((userId) => ({ userId })),
    });
  await notify('welcome', 'ana', '{actor} shared {document} with you', ['ben', 'chloe', 'dev', 'eli'], 'scope');
  await notify('reply-scope', 'ben', '{actor} replied to your comment in {document}', ['ana'], 'scope');
  await notify('reply-pricing', 'dev', '{actor} replied in {document}', ['chloe', 'ana'], 'pricing');
  await notify('resolve-pricing', 'ana', '{actor} will resolve a thread in {document}', ['chloe', 'dev'], 'pricing');
  // Dev fixes a typo in his answer, and finance signs off: the pricing thread is resolved.
  await updateComments(services, caller, {
    organizationId: ORG,
    documentId: DOC,
    annotationId: 'pricing',
    commentIds: [2],
    updatedData: {
      commentHtml: '<p>Added: 12 € per seat and month. See <a href="https://acme.example/pricing">the pricing page</a>.</p>',
    },
  });
  await updateAnnotations(services, caller, {
    organizationId: ORG,
    documentId: DOC,
    annotationIds: ['pricing'],
    updatedData: { status: { id: 'RESOLVED', name: 'Resolved', type: 'terminal' } },
  });
  // Ana has read Ben's reply; Chloé follows every comment on the roadmap.
  await markNotificationsRead(services, caller, { organizationId: ORG, userId: 'ana', notificationIds: ['reply-scope'] });
  await setNotificationConfig(services, caller, {
    organizationId: ORG,
    documentIds: [DOC],
    userIds: ['chloe'],
    config: { inbox: 'ALL' },
  });
  // Dev mentions Ana in the scope thread, with triggerNotification: Ana is notified of the mention,
  // Ben (who wrote in the thread before) of a reply, and Chloé (a member set to ALL) of a comment.
  await addComments(services, caller, {
    organizationId: ORG,
    documentId: DOC,
    annotationId: 'scope',
    triggerNotification: true,
    commentData: [
      {
        ...comment(
          'dev',
          '<p><span class="mention" data-user-id="ana">@Ana Lima</span> the sync API may land early: a mobile preview in Q1?</p>',
        ),
        taggedUserContacts: [{ userId: 'ana', text: '@Ana Lima' }],
      },
    ],
  });

  // A review bot's finding on another document, as /v2 writes it: a suggestion, by an agent, for a page.
  await addAnnotations(services, caller, {
    organizationId: ORG,
    documentId: CHECKLIST,
    commentAnnotations: [
      {
        annotationId: 'typo-finding',
        type: 'suggestion',
        suggestion: { targetId: 'heading-1', oldValue: 'Lauch plan', newValue: 'Launch plan' },
        commentData: [
          {
            ...comment('review-bot', "<p>The heading says 'Lauch plan': 'Launch plan'?</p>"),
            agent: {
              agentSource: 'external',
              agentId: 'review-bot',
              url: 'https://acme.example/launch',
              reason: { title: 'Typo' },
            },
          },
        ],
      },
    ],
  });

  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  const base = `http://${host.includes(':') ? `[${host}]` : host}:${config.port}`;
  const curl = (op: string, data: unknown, version = 'v1') =>
    `curl -s ${base}/${version}/${op} -H 'content-type: application/json' -H 'x-service-api-key: ${creds.apiKey}' ` +
    `-H 'x-service-auth-token: ${creds.authToken}' -d '${JSON.stringify({ data })}'`;
  io.out(
    [
      `Demo organization "${ORG}" loaded for a new tenant: ${USERS.length} users, 2 comment threads on "${DOC}" (one` +
        ` resolved, with an edited comment), a review bot's suggestion on "${CHECKLIST}", 7 notifications (3 from a` +
        ' comment that mentions Ana; one she has read).',
      '',
      `  API key:    ${creds.apiKey}`,
      `  Auth token: ${creds.authToken}`,
      '',
      `With the server running (npm start), paste any of these:`,
      '',
      "# Ana's inbox, newest first: Dev's mention (from his comment), and Ben's reply, which she has read (false)",
      curl('notifications/get', { organizationId: ORG, userId: 'ana' }),
      '',
      '# How many notifications Ana has, and how many she has not read',
      curl('notifications/count/get', { organizationId: ORG, userId: 'ana' }),
      '',
      "# The document's threads, newest first: the pricing thread is resolved, and Dev's answer was edited",
      curl('commentannotations/get', { organizationId: ORG, documentId: DOC }),
      '',
      '# Rename Ana; the thread and the notifications show the new name at once',
      curl('users/update', { organizationId: ORG, users: [{ userId: 'ana', name: 'Ana Lima-Souza' }] }),
      '',
      "# Mark everything in Ana's inbox read: the answer counts those newly marked",
      curl('notifications/read', { organizationId: ORG, userId: 'ana' }),
      '',
      "# Chloé's notification settings for the roadmap: every comment reaches her inbox (ALL)",
      curl('notifications/config/get', { organizationId: ORG, documentIds: [DOC], userId: 'chloe' }),
      '',
      "# /v2: every agent suggestion of the organization still pending, across its documents (the review bot's)",
      curl('commentannotations/get', { organizationId: ORG, agentSuggestions: true }, 'v2'),
    ].join('\n'),
  );
}
