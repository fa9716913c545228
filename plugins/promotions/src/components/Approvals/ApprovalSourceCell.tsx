import { Typography, makeStyles } from '@material-ui/core';
import { ApprovalItem } from '@refplat/plugin-promotions-common';
import { DateTime } from 'luxon';
import { briefDigest } from '../common/briefDigest';
import { HealthChip } from '../common/HealthChip';
import { SoakCountdown } from '../LadderCard/SoakCountdown';

const useStyles = makeStyles(theme => ({
  // One line per service, in the order of the Digests column beside it; the soak wraps below
  // the chip rather than widen the table past the page.
  line: { display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: theme.spacing(0.5), whiteSpace: 'nowrap' },
}));

/**
 * The source stage as the approver judges it: per service its verdict and
 * soak, or that the stage moved on from the digest promoted.
 */
export const ApprovalSourceCell = (props: { item: ApprovalItem }) => {
  const classes = useStyles();
  const { item } = props;
  if (!item.source) {
    return (
      <Typography variant="caption" color="textSecondary" data-testid={`approval-source-${item.id}`}>
        {item.kind === 'rollback' ? 'a rollback' : 'not known'}
      </Typography>
    );
  }
  const { source } = item;
  return (
    <div data-testid={`approval-source-${item.id}`}>
      {source.services.map(service => {
        const testId = `approval-source-${item.id}-${service.service}`;
        const since = service.healthySince
          ? [`${service.service} healthy in ${source.stage} since ${DateTime.fromISO(service.healthySince).toRelative()}`]
          : [`${service.service} in ${source.stage}`];
        return (
          <div key={service.service} className={classes.line} data-testid={testId}>
            <HealthChip verdict={service.verdict} reasons={since} />
            {!service.stillInSource && (
              <Typography variant="caption" color="error">
                {service.nowInSource ? `moved on to ${briefDigest(service.nowInSource)}` : 'no longer there'}
              </Typography>
            )}
            {service.soakRemainingSeconds === 0 && <Typography variant="caption">soaked</Typography>}
            {(service.soakRemainingSeconds ?? 0) > 0 && (
              <SoakCountdown seconds={service.soakRemainingSeconds!} stage={source.stage} testId={`${testId}-soak`} />
            )}
          </div>
        );
      })}
    </div>
  );
};
