import { MouseEvent, useState } from 'react';
import { Link, Popover, Typography, makeStyles } from '@material-ui/core';
import { PromotionChecklist } from './PromotionChecklist';
import { ServiceChecklist } from './rungChecklist';

const useStyles = makeStyles(theme => ({
  link: { marginLeft: theme.spacing(0.5), whiteSpace: 'nowrap' },
  paper: { padding: theme.spacing(2), maxWidth: 420 },
  reason: { marginBottom: theme.spacing(1) },
}));

/** "why?" beside a disabled Request Promotion: the reason and each gate with ✓/✗. */
export const WhyCantIPromote = (props: {
  testId: string;
  reason: string;
  checklists: ServiceChecklist[];
}) => {
  const classes = useStyles();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  if (props.checklists.length === 0) return null;
  return (
    <>
      <Link
        component="button"
        variant="caption"
        className={classes.link}
        onClick={(event: MouseEvent<HTMLElement>) => setAnchor(event.currentTarget)}
        data-testid={props.testId}
      >
        why?
      </Link>
      <Popover
        open={!!anchor}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'left' }}
        classes={{ paper: classes.paper }}
      >
        <div data-testid={`${props.testId}-popover`}>
          <Typography variant="body2" className={classes.reason}>
            {props.reason}
          </Typography>
          <PromotionChecklist checklists={props.checklists} />
        </div>
      </Popover>
    </>
  );
};
