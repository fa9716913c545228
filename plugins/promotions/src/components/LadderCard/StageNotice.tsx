import { ComponentType, ReactNode, forwardRef } from 'react';
import { SvgIconProps, Typography, makeStyles } from '@material-ui/core';

type Tone = 'info' | 'error';

const useStyles = makeStyles(theme => ({
  root: {
    display: 'flex',
    alignItems: 'flex-start',
    gap: theme.spacing(0.5),
    margin: theme.spacing(0.5, 0),
    padding: theme.spacing(0.5, 1),
    borderRadius: theme.shape.borderRadius,
    border: ({ tone }: { tone: Tone }) => `1px solid ${theme.palette[tone].main}`,
    color: theme.palette.text.primary,
  },
  icon: { marginTop: 2, color: ({ tone }: { tone: Tone }) => theme.palette[tone].main },
}));

/**
 * A boxed line under a stage's name (a freeze, an open incident): an icon and
 * text, framed in the tone's colour. Forwards its ref and other props, so a
 * Tooltip can wrap it.
 */
export const StageNotice = forwardRef<
  HTMLDivElement,
  { tone: Tone; icon: ComponentType<SvgIconProps>; testId: string; children: ReactNode }
>(({ tone, icon: Icon, testId, children, ...rest }, ref) => {
  const classes = useStyles({ tone });
  return (
    <Typography {...rest} ref={ref} variant="caption" component="div" className={classes.root} data-testid={testId}>
      <Icon fontSize="inherit" className={classes.icon} />
      <span>{children}</span>
    </Typography>
  );
});
