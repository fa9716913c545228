import { Typography, makeStyles } from '@material-ui/core';
import { DigestLabel } from './DigestLabel';

const useStyles = makeStyles(theme => ({
  // Two 7-digit digests: short enough never to wrap apart.
  root: {
    display: 'inline-flex',
    alignItems: 'center',
    whiteSpace: 'nowrap',
    gap: theme.spacing(0.5),
  },
  none: { color: theme.palette.text.secondary, fontStyle: 'italic' },
}));

/** `old → new` for one service's digest; "none" when the stage had none. */
export const DigestChange = (props: {
  from?: string | null;
  to: string;
  testId?: string;
}) => {
  const classes = useStyles();
  return (
    <span className={classes.root} data-testid={props.testId}>
      {props.from ? (
        <DigestLabel digest={props.from} />
      ) : (
        <Typography component="span" variant="body2" className={classes.none}>
          none
        </Typography>
      )}
      <Typography component="span" variant="body2" aria-label="becomes">
        →
      </Typography>
      <DigestLabel digest={props.to} />
    </span>
  );
};
