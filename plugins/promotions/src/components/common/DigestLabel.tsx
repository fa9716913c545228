import { Tooltip, Typography, makeStyles } from '@material-ui/core';
import { briefDigest } from './briefDigest';

const useStyles = makeStyles({
  digest: { fontFamily: 'monospace', whiteSpace: 'nowrap' },
});

/** A digest's first 7 hex digits; the full digest on hover. */
export const DigestLabel = (props: { digest: string }) => {
  const classes = useStyles();
  return (
    <Tooltip title={props.digest}>
      <Typography
        component="span"
        variant="body2"
        className={classes.digest}
        data-testid="digest"
        data-digest={props.digest}
      >
        {briefDigest(props.digest)}
      </Typography>
    </Tooltip>
  );
};
