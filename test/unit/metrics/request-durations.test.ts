/**
 * The request-duration histogram against prom-client's own: for any observations, /metrics
 * shows the same text (buckets at and between bounds, past the last, labels that need
 * escaping, series in the order first seen), and a reset empties it as prom-client's does.
 */
import fc from 'fast-check';
import { Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { RequestDurations } from '../../../src/metrics/request-durations.js';

const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const NAME = 'http_request_duration_seconds';
const HELP = 'Time to answer a request, by method, route pattern and status';

function both() {
  const ours = new RequestDurations(NAME, HELP, BUCKETS);
  const oursRegistry = new Registry();
  oursRegistry.registerMetric(ours.asMetric());
  const theirsRegistry = new Registry();
  const theirs = new Histogram({
    name: NAME,
    help: HELP,
    labelNames: ['method', 'route', 'status'] as const,
    buckets: BUCKETS,
    registers: [theirsRegistry],
  });
  return { ours, oursRegistry, theirs, theirsRegistry };
}

const observation = fc.record({
  method: fc.constantFrom('GET', 'POST', 'DELETE'),
  route: fc.constantFrom('/api/events', '/api/orders/:id', 'unmatched', '/a/"quoted"\\path\n'),
  status: fc.constantFrom(200, 201, 304, 404, 500),
  seconds: fc.oneof(
    fc.constantFrom(0, ...BUCKETS, 10.000001, 3600),
    fc.double({ min: 0, max: 20, noNaN: true }),
  ),
});

describe('the request-duration histogram', () => {
  it('shows what prom-client’s Histogram shows for the same observations', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(observation, { maxLength: 60 }), async (observations) => {
        const { ours, oursRegistry, theirs, theirsRegistry } = both();
        for (const { method, route, status, seconds } of observations) {
          ours.observe(method, route, status, seconds);
          theirs.observe({ method, route, status: String(status) }, seconds);
        }
        expect(await oursRegistry.metrics()).toBe(await theirsRegistry.metrics());
        // The same samples as objects too, but for prom-client's exemplars, which are off.
        const withoutExemplars = (metrics: Awaited<ReturnType<Registry['getMetricsAsJSON']>>) =>
          metrics.map(({ values, ...metric }) => ({
            ...metric,
            values: values.map(({ exemplar: _, ...sample }: Record<string, unknown>) => sample),
          }));
        expect(await oursRegistry.getMetricsAsJSON()).toEqual(
          withoutExemplars(await theirsRegistry.getMetricsAsJSON()),
        );
      }),
      { numRuns: 300 },
    );
  });

  it('counts a value at a bound in that bound’s bucket, and one past the last only in +Inf', async () => {
    const { ours, oursRegistry } = both();
    ours.observe('GET', '/api/events', 200, 0.005);
    ours.observe('GET', '/api/events', 200, 11);
    const text = await oursRegistry.metrics();
    const route = 'method="GET",route="/api/events",status="200"';
    expect(text).toContain(`${NAME}_bucket{le="0.005",${route}} 1\n`);
    expect(text).toContain(`${NAME}_bucket{le="10",${route}} 1\n`);
    expect(text).toContain(`${NAME}_bucket{le="+Inf",${route}} 2\n`);
    expect(text).toContain(`${NAME}_sum{${route}} 11.005\n`);
    expect(text).toContain(`${NAME}_count{${route}} 2`);
  });

  it('leaves out a duration that is not a number, and empties on reset', async () => {
    const { ours, oursRegistry } = both();
    ours.observe('GET', '/api/events', 200, Number.NaN);
    ours.observe('GET', '/api/events', 200, Number.POSITIVE_INFINITY);
    expect(await oursRegistry.metrics()).not.toContain('_count');
    ours.observe('GET', '/api/events', 200, 0.2);
    expect(await oursRegistry.metrics()).toContain('_count');
    oursRegistry.resetMetrics();
    expect(await oursRegistry.metrics()).not.toContain('_count');
  });
});
