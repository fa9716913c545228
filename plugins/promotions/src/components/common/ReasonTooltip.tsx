import { ReactElement, ReactNode } from 'react';
import { Tooltip, makeStyles } from '@material-ui/core';

const useStyles = makeStyles(theme => ({
  // Reads like a small card: a checklist is more than a dark one-liner holds.
  tooltip: {
    backgroundColor: theme.palette.background.paper,
    color: theme.palette.text.primary,
    boxShadow: theme.shadows[4],
    fontSize: theme.typography.body2.fontSize,
    maxWidth: 440,
    padding: theme.spacing(1.5),
    overflowWrap: 'anywhere',
  },
}));

/**
 * The one place a disabled action explains itself: hovering or focusing it
 * shows why (and, for a promotion, its checklist). A disabled button fires no
 * hover events, so a focusable span carries the tooltip.
 */
export const ReasonTooltip = (props: {
  reason: ReactNode;
  testId?: string;
  children: ReactElement;
}) => {
  const classes = useStyles();
  return (
    <Tooltip
      interactive
      classes={{ tooltip: classes.tooltip }}
      title={<div data-testid={props.testId}>{props.reason}</div>}
    >
      {/* eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a disabled button takes no focus: keyboard users reach its reason through this wrapper */}
      <span tabIndex={0}>{props.children}</span>
    </Tooltip>
  );
};
