import { Attributes, metrics } from '@opentelemetry/api';
import {
  AggregationTemporality,
  DataPointType,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';
import { PROMOTIONS_METER } from '../promotionsMetrics';

/** A data point as a test asserts it: a histogram's count and sum, any other instrument's value. */
export interface RecordedPoint {
  attributes: Attributes;
  value: number | { count: number; sum: number };
}

/**
 * The SDK's meter provider, installed as the global one (as an
 * instrumentation file installs it), exporting to memory: `collect()`
 * exports now and answers each of the plugin's instruments' points, by
 * name. Cumulative: a point holds all that was recorded since `install`.
 */
export function installMetricsReader() {
  const exporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  // Exported when the test collects, never on a timer.
  const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 2 ** 31 - 1 });
  const provider = new MeterProvider({ readers: [reader] });
  // The API takes a global provider once: the previous test's is let go first.
  metrics.disable();
  metrics.setGlobalMeterProvider(provider);

  const collect = async (): Promise<Record<string, RecordedPoint[]>> => {
    await reader.forceFlush();
    const exported = exporter.getMetrics().at(-1);
    exporter.reset();
    const scope = exported?.scopeMetrics.find(scoped => scoped.scope.name === PROMOTIONS_METER);
    return Object.fromEntries(
      (scope?.metrics ?? []).map(metric => [
        metric.descriptor.name,
        metric.dataPoints.map(point => ({
          attributes: point.attributes,
          value:
            metric.dataPointType === DataPointType.HISTOGRAM
              ? { count: (point.value as { count: number }).count, sum: (point.value as { sum: number }).sum }
              : (point.value as number),
        })),
      ]),
    );
  };

  const uninstall = async () => {
    await provider.shutdown();
    metrics.disable();
  };

  return { collect, uninstall };
}
