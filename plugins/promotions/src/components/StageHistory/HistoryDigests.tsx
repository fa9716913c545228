import { Typography, makeStyles } from '@material-ui/core';
import { StageHistoryEntry } from '@refplat/plugin-promotions-common';
import { DigestChange } from '../common/DigestChange';
import { DigestLabel } from '../common/DigestLabel';

const useStyles = makeStyles(theme => ({
  changed: { fontWeight: 500 },
  kept: { color: theme.palette.text.secondary },
}));

/**
 * A history row's digests read as a change: each Service the commit changed
 * as `from → to` (or removed), the ones it kept dimmed beside them.
 */
export const HistoryDigests = (props: { entry: StageHistoryEntry }) => {
  const classes = useStyles();
  const { services, changes } = props.entry;
  const changed = new Map(changes.map(change => [change.service, change]));
  return (
    <>
      {changes.map(({ service, from, to }) => (
        <Typography
          key={service}
          component="div"
          variant="body2"
          className={classes.changed}
          data-testid={`history-change-${service}`}
        >
          {service}:{' '}
          {to ? <DigestChange from={from} to={to} /> : <>removed (was <DigestLabel digest={from!} />)</>}
        </Typography>
      ))}
      {Object.entries(services)
        .filter(([service]) => !changed.has(service))
        .map(([service, digest]) => (
          <Typography key={service} component="div" variant="body2" className={classes.kept}>
            {service}: <DigestLabel digest={digest} />
          </Typography>
        ))}
    </>
  );
};
