import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, Tooltip, XAxis, YAxis } from 'recharts';
import { Grid } from '@material-ui/core';
import { CATEGORY_ROW_PX, ChartBox, SERIES_COLOURS, duration, hours, sliceLabel } from './chartParts';
import { MetricCard } from './MetricCard';
import { DeliveryMetricsWithTrend } from './useDeliveryMetrics';

const DEFINITION =
  "Lead time: for each digest whose first arrival in the last stage (prod) is in the window, that " +
  'arrival minus its first arrival in the first stage. Per rung (stage N-1 → N): the same between ' +
  'first arrivals in those two stages, counted where the arrival in stage N is in the window. ' +
  'Median and 90th percentile, in hours.';

/** Lead time to prod, median and p90, per rung to show where the time goes, and its trend. */
export const LeadTimeCard = ({ data }: { data: DeliveryMetricsWithTrend }) => {
  const { leadTime } = data.total;
  const rungs = leadTime.rungs.map(rung => ({
    rung: `${rung.fromStage} → ${rung.toStage}`,
    median: hours(rung.medianMs),
    p90: hours(rung.p90Ms),
    samples: rung.samples,
  }));
  const trend = data.trend.map(point => ({
    label: sliceLabel(point.from),
    median: hours(point.metrics.leadTime.medianMs),
    p90: hours(point.metrics.leadTime.p90Ms),
  }));
  return (
    <MetricCard
      title="Lead time"
      testId="metric-lead-time"
      headline={`Median ${duration(leadTime.medianMs)}, p90 ${duration(leadTime.p90Ms)} (samples: ${
        leadTime.samples
      }; per rung: ${rungs.map(r => `${r.rung} ${r.samples}`).join(', ')})`}
      definition={DEFINITION}
    >
      <Grid container spacing={2}>
        <Grid item xs={12} lg={6}>
          {/* Rungs down the side: a label like "uat → staging" never has to give way to its neighbours. */}
          <ChartBox title="Lead time per rung, hours" height={Math.max(220, 40 + CATEGORY_ROW_PX * rungs.length)}>
            <BarChart data={rungs} layout="vertical">
              <CartesianGrid strokeDasharray="3 3" />
              <XAxis type="number" unit="h" />
              <YAxis type="category" dataKey="rung" width="auto" interval={0} />
              <Tooltip />
              <Legend />
              <Bar dataKey="median" fill={SERIES_COLOURS[0]} isAnimationActive={false} />
              <Bar dataKey="p90" fill={SERIES_COLOURS[1]} isAnimationActive={false} />
            </BarChart>
          </ChartBox>
        </Grid>
        <Grid item xs={12} lg={6}>
          <ChartBox title="Lead time to prod week by week, hours">
            <LineChart data={trend}>
              <CartesianGrid strokeDasharray="3 3" />
              <XAxis dataKey="label" />
              <YAxis unit="h" />
              <Tooltip />
              <Legend />
              <Line dataKey="median" stroke={SERIES_COLOURS[0]} isAnimationActive={false} connectNulls />
              <Line dataKey="p90" stroke={SERIES_COLOURS[1]} isAnimationActive={false} connectNulls />
            </LineChart>
          </ChartBox>
        </Grid>
      </Grid>
    </MetricCard>
  );
};
