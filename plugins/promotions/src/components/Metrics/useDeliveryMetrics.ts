import useAsync from 'react-use/esm/useAsync';
import { useApi } from '@backstage/core-plugin-api';
import { DeliveryMetricsResponse, MetricsScope, promotionsApiRef } from '../../api';
import { TrendWindow, trendWindows } from './trendWindows';

/** The metrics of one slice of the window, for a trend point. */
export interface TrendPoint extends TrendWindow {
  metrics: DeliveryMetricsResponse;
}

/** The metrics of the whole window and of each of its slices (the trend). */
export interface DeliveryMetricsWithTrend {
  total: DeliveryMetricsResponse;
  trend: TrendPoint[];
}

/** Reads the window and its slices in parallel; one answer, or the first error. */
export function useDeliveryMetrics(scope: MetricsScope, from: Date, to: Date) {
  const api = useApi(promotionsApiRef);
  const scopeKey = JSON.stringify(scope);
  return useAsync(async (): Promise<DeliveryMetricsWithTrend> => {
    const slices = trendWindows(from, to);
    const [total, ...points] = await Promise.all([
      api.getMetrics(scope, { from, to }),
      ...slices.map(slice => api.getMetrics(scope, slice)),
    ]);
    return { total, trend: slices.map((slice, i) => ({ ...slice, metrics: points[i] })) };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [api, scopeKey, from.getTime(), to.getTime()]);
}
