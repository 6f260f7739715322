// Counters and histograms for the request path, with their label values bound once (per route, per
// store method) instead of per observation. prom-client hashes the label object of every `observe` and
// `inc` (sorting its keys, building a string): about 10 us of each request on the bench, more than the
// database read of an empty answer. These keep plain numbers per series and hand prom-client's
// registry the same values its own metrics would, so /metrics reads exactly as before.
import type { Metric, Registry } from 'prom-client';

type Labels = Readonly<Record<string, string>>;
interface Value {
  labels: Record<string, string | number>;
  value: number;
  metricName?: string;
}

/** A counter's series for one set of label values. */
export class CounterSeries {
  value = 0;
  constructor(readonly labels: Labels) {}

  inc(): void {
    this.value++;
  }
}

/** A histogram's series for one set of label values: a count per bucket, the sum and the count. */
export class HistogramSeries {
  readonly counts: number[];
  sum = 0;
  count = 0;

  constructor(
    readonly labels: Labels,
    private readonly bounds: readonly number[],
  ) {
    this.counts = bounds.map(() => 0);
  }

  observe(value: number): void {
    const bounds = this.bounds;
    let i = 0;
    while (i < bounds.length && value > bounds[i]!) i++;
    if (i < bounds.length) this.counts[i]!++;
    this.sum += value;
    this.count++;
  }
}

/** Series by their label values, in the order they were first used (the order of the exposition). */
abstract class BoundMetric<S extends { labels: Labels }> {
  readonly aggregator = 'sum';
  private readonly all = new Map<string, S>();

  constructor(
    readonly name: string,
    readonly help: string,
    registry: Registry,
  ) {
    // The registry takes any object with a name, get() and reset(); its typings list only its own classes.
    registry.registerMetric(this as unknown as Metric);
  }

  protected abstract make(labels: Labels): S;

  /** The series of these label values: look it up once, then keep it. */
  series(labels: Labels): S {
    const key = JSON.stringify(labels);
    let s = this.all.get(key);
    if (!s) {
      s = this.make(labels);
      this.all.set(key, s);
    }
    return s;
  }

  /** The series that have counted something: like prom-client, a series shows once it is used. */
  protected get usedSeries(): S[] {
    return [...this.all.values()].filter((s) => this.used(s));
  }

  protected abstract used(series: S): boolean;

  /** Zero every series; the series callers hold stay bound and count on. */
  reset(): void {
    for (const series of this.all.values()) this.zero(series);
  }

  protected abstract zero(series: S): void;
}

export class BoundCounter extends BoundMetric<CounterSeries> {
  readonly type = 'counter';

  protected make(labels: Labels): CounterSeries {
    return new CounterSeries(labels);
  }

  protected used(series: CounterSeries): boolean {
    return series.value > 0;
  }

  protected zero(series: CounterSeries): void {
    series.value = 0;
  }

  get(): { name: string; help: string; type: string; aggregator: string; values: Value[] } {
    const values = this.usedSeries.map((s) => ({ labels: { ...s.labels }, value: s.value }));
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }
}

export class BoundHistogram extends BoundMetric<HistogramSeries> {
  readonly type = 'histogram';

  constructor(
    name: string,
    help: string,
    readonly buckets: readonly number[],
    registry: Registry,
  ) {
    super(name, help, registry);
  }

  protected make(labels: Labels): HistogramSeries {
    return new HistogramSeries(labels, this.buckets);
  }

  protected used(series: HistogramSeries): boolean {
    return series.count > 0;
  }

  protected zero(series: HistogramSeries): void {
    series.counts.fill(0);
    series.sum = 0;
    series.count = 0;
  }

  get(): { name: string; help: string; type: string; aggregator: string; values: Value[] } {
    const values: Value[] = [];
    const bucket = `${this.name}_bucket`;
    for (const s of this.usedSeries) {
      let below = 0;
      this.buckets.forEach((le, i) => {
        below += s.counts[i]!;
        values.push({ labels: { le, ...s.labels }, value: below, metricName: bucket });
      });
      values.push({ labels: { le: '+Inf', ...s.labels }, value: s.count, metricName: bucket });
      values.push({ labels: { ...s.labels }, value: s.sum, metricName: `${this.name}_sum` });
      values.push({ labels: { ...s.labels }, value: s.count, metricName: `${this.name}_count` });
    }
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }
}
