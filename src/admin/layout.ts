// The frame of every console page: title, navigation, the notice or error of the last action, and the forms'
// CSRF field. No script and nothing from elsewhere (the Content-Security-Policy in console.ts says so too).
import { VERSION } from '../version.js';
import { html, type Markup, type Value } from './html.js';

export interface PageContext {
  /** The session's CSRF token (absent on the login page: no session yet). */
  csrf?: string;
  notice?: string | null;
  error?: string | null;
}

export const csrfField = (ctx: PageContext): Markup => html`<input type="hidden" name="csrf" value="${ctx.csrf ?? ''}">`;

/** A one-button form that posts to `action`, with the CSRF field and any hidden fields. */
export function button(
  ctx: PageContext,
  action: string,
  label: string,
  fields: Record<string, string> = {},
  danger = false,
): Markup {
  return html`<form method="post" action="${action}" class="inline">${csrfField(ctx)}${Object.entries(fields).map(
    ([k, v]) => html`<input type="hidden" name="${k}" value="${v}">`,
  )}<button type="submit"${danger ? html` class="danger"` : ''}>${label}</button></form>`;
}

export function page(title: string, ctx: PageContext, body: Value): string {
  const nav = ctx.csrf
    ? html`<nav><a href="/admin">Health</a> <a href="/admin/tenants">Tenants</a>
<form method="post" action="/admin/logout" class="inline">${csrfField(ctx)}<button type="submit">Log out</button></form></nav>`
    : '';
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · Marginalia admin</title>
<link rel="stylesheet" href="/admin/admin.css">
</head>
<body>
<header><strong>Marginalia admin</strong> <small>${VERSION}</small> ${nav}</header>
<main>
<h1>${title}</h1>
${ctx.notice ? html`<p class="notice" role="status">${ctx.notice}</p>` : ''}
${ctx.error ? html`<p class="error" role="alert">${ctx.error}</p>` : ''}
${body}
</main>
</body>
</html>
`.text;
}
