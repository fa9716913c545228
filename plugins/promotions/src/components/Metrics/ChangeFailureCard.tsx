import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, Tooltip, XAxis, YAxis } from 'recharts';
import { Grid } from '@material-ui/core';
import { ChartBox, SERIES_COLOURS, duration, hours, sliceLabel } from './chartParts';
import { MetricCard } from './MetricCard';
import { DeliveryMetricsWithTrend } from './useDeliveryMetrics';

const DEFINITION =
  "Change-failure rate: a change is a digest arriving in a Service's prod that had never been " +
  'there before. It failed when the next prod change of that Service comes within the failure ' +
  'window (promotions.metrics.failureWindow, default 1 day): a rollback (a digest that had been in ' +
  'that prod before) or a fix-forward (one that had not). Rollbacks are not changes themselves. ' +
  'Time to restore: for each failed change, its arrival to the merge of the rollback or fix that ' +
  'replaced it; median and 90th percentile.';

const percent = (rate: number | undefined) => (rate === undefined ? undefined : Math.round(rate * 1000) / 10);

/** Change-failure rate and time to restore, with their trends. */
export const ChangeFailureCard = ({ data }: { data: DeliveryMetricsWithTrend }) => {
  const { changeFailureRate: cfr, timeToRestore: ttr } = data.total;
  const trend = data.trend.map(point => ({
    label: sliceLabel(point.from),
    rollbacks: point.metrics.changeFailureRate.rollbacks,
    fixForwards: point.metrics.changeFailureRate.fixForwards,
    rate: percent(point.metrics.changeFailureRate.rate),
    restore: hours(point.metrics.timeToRestore.medianMs),
  }));
  const rate = percent(cfr.rate);
  return (
    <MetricCard
      title="Change failures and time to restore"
      testId="metric-change-failure"
      headline={`Change-failure rate ${rate === undefined ? '—' : `${rate}%`} (${cfr.failures} of ${
        cfr.changes
      } changes: ${cfr.rollbacks} rolled back, ${cfr.fixForwards} fixed forward) · time to restore median ${duration(
        ttr.medianMs,
      )}, p90 ${duration(ttr.p90Ms)} (samples: ${ttr.samples})`}
      definition={DEFINITION}
    >
      <Grid container spacing={2}>
        <Grid item xs={12} lg={6}>
          <ChartBox title="Failed changes week by week">
            <BarChart data={trend}>
              <CartesianGrid strokeDasharray="3 3" />
              <XAxis dataKey="label" />
              <YAxis allowDecimals={false} />
              <Tooltip />
              <Legend />
              <Bar dataKey="rollbacks" stackId="failures" fill={SERIES_COLOURS[3]} isAnimationActive={false} />
              <Bar dataKey="fixForwards" name="fix-forwards" stackId="failures" fill={SERIES_COLOURS[1]} isAnimationActive={false} />
            </BarChart>
          </ChartBox>
        </Grid>
        <Grid item xs={12} lg={6}>
          <ChartBox title="Change-failure rate (%) and median time to restore (h) week by week">
            <LineChart data={trend}>
              <CartesianGrid strokeDasharray="3 3" />
              <XAxis dataKey="label" />
              <YAxis yAxisId="rate" unit="%" domain={[0, 100]} />
              <YAxis yAxisId="restore" orientation="right" unit="h" />
              <Tooltip />
              <Legend />
              <Line yAxisId="rate" dataKey="rate" name="failure rate" stroke={SERIES_COLOURS[3]} isAnimationActive={false} connectNulls />
              <Line yAxisId="restore" dataKey="restore" name="time to restore" stroke={SERIES_COLOURS[4]} isAnimationActive={false} connectNulls />
            </LineChart>
          </ChartBox>
        </Grid>
      </Grid>
    </MetricCard>
  );
};
