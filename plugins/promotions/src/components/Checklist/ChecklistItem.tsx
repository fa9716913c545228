import { ListItem, ListItemIcon, ListItemText, makeStyles } from '@material-ui/core';
import CancelIcon from '@material-ui/icons/Cancel';
import CheckCircleIcon from '@material-ui/icons/CheckCircle';
import { PromotionChecklistItem } from '@refplat/plugin-promotions-common';

const useStyles = makeStyles(theme => ({
  icon: { minWidth: theme.spacing(4) },
  ok: { color: theme.palette.success.main },
  blocked: { color: theme.palette.error.main },
}));

/** One gate: ✓ or ✗, its name and what it found. */
export const ChecklistItem = (props: { service: string; item: PromotionChecklistItem }) => {
  const classes = useStyles();
  const { item } = props;
  return (
    <ListItem
      dense
      disableGutters
      data-testid={`checklist-${props.service}-${item.gate}`}
      data-ok={String(item.ok)}
    >
      <ListItemIcon className={classes.icon}>
        {item.ok ? (
          <CheckCircleIcon
            fontSize="small"
            className={classes.ok}
            titleAccess="✓ passes"
            data-testid="gate-ok"
          />
        ) : (
          <CancelIcon
            fontSize="small"
            className={classes.blocked}
            titleAccess="✗ blocks"
            data-testid="gate-blocked"
          />
        )}
      </ListItemIcon>
      <ListItemText primary={item.gate} secondary={item.detail} />
    </ListItem>
  );
};
