// The values /metrics shows, read back from its registry's text (the Prometheus exposition format), so the console
// shows what a scrape would and the metrics keep one definition.
import type { Metrics } from '../http/metrics.js';

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const LINE = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})?\s+(\S+)/;
const LABEL = /(\w+)="((?:[^"\\]|\\.)*)"/g;

export function parseExposition(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const m = LINE.exec(line);
    if (!m) continue;
    const labels: Record<string, string> = {};
    for (const [, k, v] of (m[2] ?? '').matchAll(LABEL))
      labels[k!] = v!.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
    const value = Number(m[3]);
    if (Number.isFinite(value)) samples.push({ name: m[1]!, labels, value });
  }
  return samples;
}

export async function metricSamples(metrics: Metrics): Promise<Sample[]> {
  return parseExposition(await metrics.registry.metrics());
}

/** The samples of one metric summed by one of its labels, largest first. */
export function sumBy(samples: readonly Sample[], name: string, label: string): { label: string; value: number }[] {
  const sums = new Map<string, number>();
  for (const s of samples) if (s.name === name) sums.set(s.labels[label] ?? '', (sums.get(s.labels[label] ?? '') ?? 0) + s.value);
  return [...sums].map(([l, value]) => ({ label: l, value })).sort((a, b) => b.value - a.value);
}
