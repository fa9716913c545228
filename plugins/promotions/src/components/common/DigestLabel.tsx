import { IconButton, Tooltip, Typography, makeStyles } from '@material-ui/core';
import FileCopyOutlinedIcon from '@material-ui/icons/FileCopyOutlined';
import { shortDigest } from '@refplat/plugin-promotions-common';

const useStyles = makeStyles({
  root: { display: 'inline-flex', alignItems: 'center', whiteSpace: 'nowrap' },
  digest: { fontFamily: 'monospace' },
});

/** A short digest; the full one on hover, and a button that copies it. */
export const DigestLabel = (props: { digest: string }) => {
  const classes = useStyles();
  return (
    <span className={classes.root}>
      <Tooltip title={props.digest}>
        <Typography
          component="span"
          variant="body2"
          className={classes.digest}
          data-testid="digest"
          data-digest={props.digest}
        >
          {shortDigest(props.digest)}
        </Typography>
      </Tooltip>
      <IconButton
        size="small"
        aria-label={`Copy ${props.digest}`}
        onClick={() => window.navigator.clipboard?.writeText(props.digest)}
      >
        <FileCopyOutlinedIcon fontSize="inherit" />
      </IconButton>
    </span>
  );
};
