import { useState } from 'react';
import { Progress } from '@backstage/core-components';
import { CannotReadPanel } from '../common/CannotReadPanel';
import { Grid, Typography } from '@material-ui/core';
import { MetricsScope } from '../../api';
import { ChangeFailureCard } from './ChangeFailureCard';
import { DeploymentFrequencyCard } from './DeploymentFrequencyCard';
import { LeadTimeCard } from './LeadTimeCard';
import { MetricsControls, MetricsSelection } from './MetricsControls';
import { useDeliveryMetrics } from './useDeliveryMetrics';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The four weeks up to and including today (UTC days). */
function lastFourWeeks(now: Date): { from: Date; to: Date } {
  const to = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) + DAY_MS);
  return { from: new Date(to.getTime() - 28 * DAY_MS), to };
}

/**
 * Delivery metrics (DORA) of the organisation, a team or one Product over a
 * chosen window, each with its sample counts, its trend week by week and its
 * definition.
 */
export const DeliveryMetricsView = (props: { scope?: MetricsScope; now?: Date }) => {
  const [selection, setSelection] = useState<MetricsSelection>(() => ({
    scope: props.scope ?? { kind: 'org' },
    ...lastFourWeeks(props.now ?? new Date()),
  }));
  const metrics = useDeliveryMetrics(selection.scope, selection.from, selection.to);
  const data = metrics.value;

  return (
    <div data-testid="delivery-metrics">
      <MetricsControls selection={selection} onChange={setSelection} />
      {metrics.loading && <Progress />}
      {metrics.error && <CannotReadPanel what="the delivery metrics" error={metrics.error} />}
      {data && !metrics.loading && (
        <>
          <Typography variant="body2" color="textSecondary" paragraph data-testid="metrics-products">
            {data.total.products.length} Products counted
            {data.total.products.length > 0 && data.total.products.length <= 10
              ? `: ${data.total.products.join(', ')}`
              : ''}
            . Read from the git history of the Release records on the platform branch.
          </Typography>
          <Grid container spacing={3}>
            <Grid item xs={12}>
              <DeploymentFrequencyCard data={data} />
            </Grid>
            <Grid item xs={12}>
              <LeadTimeCard data={data} />
            </Grid>
            <Grid item xs={12}>
              <ChangeFailureCard data={data} />
            </Grid>
          </Grid>
        </>
      )}
    </div>
  );
};
