import { Bar, BarChart, CartesianGrid, Tooltip, XAxis, YAxis } from 'recharts';
import { Grid } from '@material-ui/core';
import { CATEGORY_ROW_PX, ChartBox, SERIES_COLOURS, sliceLabel } from './chartParts';
import { MetricCard } from './MetricCard';
import { StageTrends } from './StageTrends';
import { DeliveryMetricsWithTrend } from './useDeliveryMetrics';

const DEFINITION =
  'Deployments per week into each stage: the commits that changed at least one digest in a ' +
  "Product's Release record of that stage (merged promotions, rollbacks, CI pushes into the first " +
  'stage, PRs merged by hand), counted once per Product and commit.';

/** Deployment frequency per stage over the window, and per week as a trend. */
export const DeploymentFrequencyCard = ({ data }: { data: DeliveryMetricsWithTrend }) => {
  const stages = data.total.deploymentFrequency.map(f => f.stage);
  const perStage = data.total.deploymentFrequency.map(f => ({
    stage: f.stage,
    perWeek: Math.round(f.perWeek * 10) / 10,
    deployments: f.deployments,
  }));
  const trend = data.trend.map(point => ({
    label: sliceLabel(point.from),
    ...Object.fromEntries(point.metrics.deploymentFrequency.map(f => [f.stage, f.deployments])),
  }));
  const deployments = data.total.deploymentFrequency.reduce((sum, f) => sum + f.deployments, 0);
  return (
    <MetricCard
      title="Deployment frequency"
      testId="metric-deployment-frequency"
      headline={`${deployments} ${deployments === 1 ? 'deployment' : 'deployments'} over ${stages.length} stages (samples: ${perStage
        .map(s => `${s.stage} ${s.deployments}`)
        .join(', ')})`}
      definition={DEFINITION}
    >
      <Grid container spacing={2}>
        <Grid item xs={12}>
          {/* Stages down the side: every stage's name has a row of its own, at any width. */}
          <ChartBox title="Deployments per week by stage" height={40 + CATEGORY_ROW_PX * stages.length}>
            <BarChart data={perStage} layout="vertical">
              <CartesianGrid strokeDasharray="3 3" />
              <XAxis type="number" allowDecimals />
              <YAxis type="category" dataKey="stage" width="auto" interval={0} />
              <Tooltip />
              <Bar dataKey="perWeek" name="per week" fill={SERIES_COLOURS[0]} isAnimationActive={false} />
            </BarChart>
          </ChartBox>
        </Grid>
        <Grid item xs={12}>
          <StageTrends title="Deployments by stage, week by week" stages={stages} trend={trend} />
        </Grid>
      </Grid>
    </MetricCard>
  );
};
