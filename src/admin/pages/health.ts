// The console's front page: is the database answering, and the key numbers of /metrics, with a chart.
import type { FastifyRequest } from 'fastify';
import type { App } from '../../http/types.js';
import { barChart } from '../chart.js';
import { type AdminDeps, contextOf, sendPage } from '../console.js';
import { html } from '../html.js';
import { page } from '../layout.js';
import { metricSamples, sumBy } from '../metric-values.js';

/** Requests to the console itself are left out of its chart: the API's traffic is what an operator watches. */
const isApi = (operation: string) => !operation.startsWith('/admin');

async function healthPage(deps: AdminDeps, request: FastifyRequest): Promise<string> {
  const { store } = deps.services;
  let database: string;
  try {
    await store.ping();
    database = `answering (${store.kind})`;
  } catch {
    database = `not answering (${store.kind})`;
  }
  const fault = store.fault();
  const samples = await metricSamples(deps.metrics);
  const requests = samples.filter((s) => s.name === 'marginalia_http_requests_total' && isApi(s.labels.operation ?? ''));
  const byOperation = sumBy(requests, 'marginalia_http_requests_total', 'operation').slice(0, 10);
  const byOutcome = sumBy(requests, 'marginalia_http_requests_total', 'outcome');
  const webhooks = sumBy(samples, 'marginalia_webhook_attempts_total', 'outcome');
  const streams = samples.find((s) => s.name === 'marginalia_event_streams_open')?.value ?? 0;
  const memory = process.memoryUsage();
  return page(
    'Health',
    contextOf(request),
    html`<table>
<tr><th>Database</th><td>${database}${fault ? html` · lasting fault: ${fault}` : ''}</td></tr>
<tr><th>Database check</th><td>${store.check()}</td></tr>
<tr><th>Open event streams</th><td>${streams}</td></tr>
<tr><th>Memory (resident)</th><td>${Math.round(memory.rss / 1048576)} MB</td></tr>
<tr><th>Up for</th><td>${Math.round(process.uptime())} s</td></tr>
</table>
<h2>Requests since start</h2>
${barChart('Requests by outcome', byOutcome)}
${barChart('Busiest operations', byOperation)}
<h2>Webhook attempts since start</h2>
${barChart('Webhook attempts by outcome', webhooks)}
<p class="muted">All of /metrics is at <a href="/metrics">/metrics</a>.</p>`,
  );
}

export function registerHealthPage(app: App, deps: AdminDeps): void {
  app.get('/admin', { schema: { hide: true } }, async (request, reply) => sendPage(reply, 200, await healthPage(deps, request)));
}
