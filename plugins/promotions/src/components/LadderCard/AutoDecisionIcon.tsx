import { Tooltip, makeStyles } from '@material-ui/core';
import InfoOutlinedIcon from '@material-ui/icons/InfoOutlined';
import { LadderServiceCell } from '@refplat/plugin-promotions-common';

type AutoPromotion = NonNullable<LadderServiceCell['autoPromotion']>;

const useStyles = makeStyles(theme => ({
  root: { display: 'inline-flex', alignItems: 'center', cursor: 'help' },
  promote: { color: theme.palette.success.main },
  skip: { color: theme.palette.text.secondary },
  refuse: { color: theme.palette.warning.dark },
}));

export function describeAutoPromotion(auto: AutoPromotion): string {
  return `Auto-promoter (${new Date(auto.decidedAt).toLocaleString()}): ${auto.decision} — ${auto.reason}`;
}

/** Why the auto-promoter did (not) move a digest into this cell on its last run. */
export const AutoDecisionIcon = (props: { autoPromotion: AutoPromotion; testId: string }) => {
  const classes = useStyles();
  const text = describeAutoPromotion(props.autoPromotion);
  return (
    <Tooltip title={text}>
      <span
        className={`${classes.root} ${classes[props.autoPromotion.decision] ?? ''}`}
        aria-label={text}
        data-testid={props.testId}
        data-decision={props.autoPromotion.decision}
      >
        <InfoOutlinedIcon fontSize="small" />
      </span>
    </Tooltip>
  );
};
