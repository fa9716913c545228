import { Button, Tooltip, makeStyles } from '@material-ui/core';

const useStyles = makeStyles(theme => ({
  root: { minWidth: 0, padding: theme.spacing(0, 0.5), textTransform: 'none' },
}));

/**
 * A small labelled text action, e.g. a stage's "History": its tooltip says
 * more. Its accessible name starts with the visible label (WCAG 2.5.3) and
 * tells apart the many "History" buttons of a ladder.
 */
export const LinkButton = (props: {
  label: string;
  /** The accessible name: the label, then what it is about ("History of dev"). */
  name: string;
  title: string;
  onClick: () => void;
  testId: string;
}) => {
  const classes = useStyles();
  return (
    <Tooltip title={props.title}>
      <Button
        size="small"
        color="primary"
        className={classes.root}
        aria-label={props.name}
        onClick={props.onClick}
        data-testid={props.testId}
      >
        {props.label}
      </Button>
    </Tooltip>
  );
};
