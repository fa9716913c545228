import {
  ListItem,
  ListItemIcon,
  ListItemText,
  makeStyles,
} from '@material-ui/core';
import CancelIcon from '@material-ui/icons/Cancel';
import CheckCircleIcon from '@material-ui/icons/CheckCircle';
import InfoOutlinedIcon from '@material-ui/icons/InfoOutlined';
import { PromotionChecklistItem } from '@refplat/plugin-promotions-common';
import { gateLabel, gateLook } from './gateLabels';

const useStyles = makeStyles(theme => ({
  icon: {
    minWidth: theme.spacing(4),
    alignSelf: 'flex-start',
    marginTop: theme.spacing(0.5),
  },
  ok: { color: theme.palette.success.main },
  blocked: { color: theme.palette.error.main },
  info: { color: theme.palette.text.secondary },
  // Backstage's theme cuts dense list lines with an ellipsis ("…is Degrade");
  // details carry digests and refs: wrap them anywhere instead.
  text: {
    whiteSpace: 'normal',
    overflow: 'visible',
    overflowWrap: 'anywhere',
    margin: 0,
  },
}));

const ICONS = {
  ok: { Icon: CheckCircleIcon, title: '✓ passes' },
  blocked: { Icon: CancelIcon, title: '✗ blocks' },
  info: { Icon: InfoOutlinedIcon, title: 'for information' },
};

/** One gate: ✓, ✗ or ⓘ, what it checks and what it found. */
export const ChecklistItem = (props: {
  service: string;
  item: PromotionChecklistItem;
  from: string;
  to: string;
}) => {
  const classes = useStyles();
  const { item } = props;
  const look = gateLook(item);
  const { Icon, title } = ICONS[look];
  return (
    <ListItem
      dense
      disableGutters
      data-testid={`checklist-${props.service}-${item.gate}`}
      data-ok={String(item.ok)}
      data-look={look}
    >
      <ListItemIcon className={classes.icon}>
        <Icon
          fontSize="small"
          className={classes[look]}
          titleAccess={title}
          data-testid={`gate-${look}`}
        />
      </ListItemIcon>
      <ListItemText
        className={classes.text}
        primary={gateLabel(item.gate, props.from, props.to)}
        secondary={item.detail}
      />
    </ListItem>
  );
};
