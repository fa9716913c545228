import { ReactNode } from 'react';
import { Button, Tooltip, makeStyles } from '@material-ui/core';

const useStyles = makeStyles(theme => ({
  root: { minWidth: 0, padding: theme.spacing(0, 0.5), textTransform: 'none' },
}));

/** A small labelled text action, e.g. a stage's "History": its tooltip says more. */
export const LinkButton = (props: {
  label: ReactNode;
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
        aria-label={props.title}
        onClick={props.onClick}
        data-testid={props.testId}
      >
        {props.label}
      </Button>
    </Tooltip>
  );
};
