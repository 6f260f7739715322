// The request path's bound counters and histograms expose exactly what prom-client's own would for
// the same observations, so /metrics reads the same to a scraper.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Counter, Histogram, Registry } from 'prom-client';
import { BoundCounter, BoundHistogram } from '../../src/http/hot-metrics.js';

const BUCKETS = [0.001, 0.01, 0.1, 1];
const OBSERVED: [string, number][] = [
  ['a', 0.0005],
  ['a', 0.001],
  ['b', 0.05],
  ['a', 0.5],
  ['b', 3],
  ['a', 0.01],
];

test('a bound histogram and counter read like prom-client Histogram and Counter', async () => {
  const ours = new Registry();
  const theirs = new Registry();
  const h = new BoundHistogram('t_seconds', 'Time.', BUCKETS, ours);
  const c = new BoundCounter('t_total', 'Count.', ours);
  const ph = new Histogram({ name: 't_seconds', help: 'Time.', labelNames: ['op'], buckets: BUCKETS, registers: [theirs] });
  const pc = new Counter({ name: 't_total', help: 'Count.', labelNames: ['op', 'status'], registers: [theirs] });
  // Bound but never used: shows nowhere, as a prom-client label set never observed.
  h.series({ op: 'unused' });
  c.series({ op: 'unused', status: '500' });
  for (const [op, value] of OBSERVED) {
    h.series({ op }).observe(value);
    c.series({ op, status: '200' }).inc();
    ph.observe({ op }, value);
    pc.inc({ op, status: '200' });
  }
  assert.equal(await ours.metrics(), await theirs.metrics());
  ours.resetMetrics();
  theirs.resetMetrics();
  assert.equal(await ours.metrics(), await theirs.metrics(), 'after a reset');
  h.series({ op: 'a' }).observe(0.2);
  ph.observe({ op: 'a' }, 0.2);
  assert.equal(await ours.metrics(), await theirs.metrics(), 'a series bound before the reset counts on');
});
