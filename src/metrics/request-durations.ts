/**
 * The request-duration histogram (`http_request_duration_seconds`, by method, route
 * pattern and status), observed once per request. prom-client's Histogram checks and
 * hashes its labels object on every observation and keys its buckets by the bound's text:
 * 1.3 % of an events request's CPU under load, 4 µs, the largest of the hooks' costs after
 * authentication's (docs/performance.md, issue 27, twenty-fourth pass). Here a series is
 * found by route, status and method in three Maps and counted in a typed array. What
 * /metrics shows is what prom-client's Histogram shows for the same observations (a
 * property test compares the two texts): prom-client's registry still writes it.
 */
import type { Metric } from 'prom-client';

type Label = 'method' | 'route' | 'status';
type Labels = Record<Label, string>;

/** One sample of the exposition, as prom-client's metrics give theirs to its registry. */
interface Sample {
  value: number;
  metricName: string;
  labels: Record<string, string | number>;
}

interface Series {
  labels: Labels;
  /** Per bucket: [i] counts those at most bounds[i] and above bounds[i - 1]; the last, those past all. */
  counts: Float64Array;
  sum: number;
  count: number;
}

export class RequestDurations {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  readonly #bounds: Float64Array;
  /**
   * Series by route, status and method: the router's and the HTTP parser's strings are
   * constants whose hashes V8 keeps, where a key joined from the three was a new string to
   * hash on every request.
   */
  readonly #byRoute = new Map<string, Map<number, Map<string, Series>>>();
  /** Every series, in the order first observed (prom-client's order). */
  readonly #series: Series[] = [];

  constructor(
    readonly name: string,
    readonly help: string,
    buckets: readonly number[],
  ) {
    this.#bounds = Float64Array.from([...buckets].sort((a, b) => a - b));
  }

  /** One request answered `status` after `seconds`. */
  observe(method: string, route: string, status: number, seconds: number): void {
    // prom-client refuses such a value with a throw; a clock never gives one.
    if (!Number.isFinite(seconds)) return;
    let byStatus = this.#byRoute.get(route);
    if (!byStatus) this.#byRoute.set(route, (byStatus = new Map<number, Map<string, Series>>()));
    let byMethod = byStatus.get(status);
    if (!byMethod) byStatus.set(status, (byMethod = new Map<string, Series>()));
    let series = byMethod.get(method);
    if (!series) {
      series = {
        labels: { method, route, status: String(status) },
        counts: new Float64Array(this.#bounds.length + 1),
        sum: 0,
        count: 0,
      };
      byMethod.set(method, series);
      this.#series.push(series);
    }
    const bounds = this.#bounds;
    let i = 0;
    while (i < bounds.length && seconds > bounds[i]!) i++;
    series.counts[i]! += 1;
    series.sum += seconds;
    series.count += 1;
  }

  /** The samples, as prom-client's Histogram gives them: cumulative buckets, +Inf, sum, count. */
  async get(): Promise<{
    name: string;
    help: string;
    type: 'histogram';
    aggregator: 'sum';
    values: Sample[];
  }> {
    const values: Sample[] = [];
    const bucket = `${this.name}_bucket`;
    for (const { labels, counts, sum, count } of this.#series) {
      let below = 0;
      this.#bounds.forEach((le, i) => {
        below += counts[i]!;
        values.push({ value: below, metricName: bucket, labels: { le, ...labels } });
      });
      values.push({ value: count, metricName: bucket, labels: { le: '+Inf', ...labels } });
      values.push({ value: sum, metricName: `${this.name}_sum`, labels: { ...labels } });
      values.push({ value: count, metricName: `${this.name}_count`, labels: { ...labels } });
    }
    return {
      name: this.name,
      help: this.help,
      type: this.type,
      aggregator: this.aggregator,
      values,
    };
  }

  reset(): void {
    this.#byRoute.clear();
    this.#series.length = 0;
  }

  /** The form prom-client's registry takes a metric in (it reads name, help, type, get, reset). */
  asMetric(): Metric<string> {
    return this as unknown as Metric<string>;
  }
}
