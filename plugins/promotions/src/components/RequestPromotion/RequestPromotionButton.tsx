import { ReactNode, useState } from 'react';
import { Button, Tooltip, Typography, makeStyles } from '@material-ui/core';
import ArrowUpwardIcon from '@material-ui/icons/ArrowUpward';
import { Ladder, LadderStage, overrideLifts, promotability } from '@refplat/plugin-promotions-common';
import { useChangeAccess, useOverrideAccess } from '../../access/useChangeAccess';
import { PromotionChecklist } from '../Checklist/PromotionChecklist';
import { rungChecklist } from '../Checklist/rungChecklist';
import { ReasonTooltip } from '../common/ReasonTooltip';
import { RequestPromotionDialog } from './RequestPromotionDialog';

const useStyles = makeStyles(theme => ({
  reason: { marginBottom: theme.spacing(1) },
  // The arrow alone, without the room a text label needs.
  iconOnly: { minWidth: 0, padding: theme.spacing(0.75, 1) },
}));

/**
 * A compact button's tooltip: what its text would have said. The reason an
 * allowed promotion gives already starts with "Promote"; another label
 * ("Replace…") comes first.
 */
function compactTitle(text: string, reason: string): string {
  if (!reason) return text;
  return reason.startsWith(text) ? reason : `${text}: ${reason}`;
}

/**
 * Requests a promotion into `stage` from the stage below: the whole rung, or
 * one service. When the ladder, the permission policy or the Product's owners
 * say no, it is disabled and hovering it says why, with the gates that block
 * (one affordance, not a button and a "why?" beside it). A guard's block (a
 * freeze window) disables it too, except for release-approvers, whose dialog
 * then asks for the override's reason. `label` names a
 * replacement of the promotion in flight. `compact` shows the arrow alone
 * (the accessible name stays; the tooltip says the label), for a ladder in a
 * card too narrow for the text.
 */
export const RequestPromotionButton = (props: {
  ladder: Ladder;
  stage: LadderStage;
  service?: string;
  label?: string;
  compact?: boolean;
  /**
   * Whether to offer the button (default true). Stays mounted either way: a
   * dialog already open stays open when the ladder refresh that follows the
   * request takes the button away.
   */
  offered?: boolean;
  onRequested: () => void;
}) => {
  const classes = useStyles();
  const { ladder, stage, service } = props;
  const [open, setOpen] = useState(false);
  const access = useChangeAccess(ladder, 'request-promotion');
  const override = useOverrideAccess();
  const index = ladder.stages.findIndex(candidate => candidate.name === stage.name);
  if (index <= 0) return null;
  const below = ladder.stages[index - 1].name;
  const promotable =
    (service ? stage.services[service]?.promotion : stage.promotion) ??
    promotability(ladder, stage.name, service);
  // A guard's block (a freeze window) stops everyone but release-approvers, who may override it,
  // unless its guard says an override does not lift it (provenance in enforce).
  const blocks = (stage.guards ?? []).filter(guard => guard.verdict === 'block');
  const kept = blocks.filter(block => !overrideLifts(block));
  const blockedByPolicy = blocks.length > 0 && (!override.allowed || kept.length > 0);
  const key = service ? `${stage.name}-${service}` : stage.name;
  const text = props.label ?? 'Promote';
  // The accessible name starts with the visible text (WCAG 2.5.3), then says what and where.
  const spoken = text.replace(/…$/, '');
  const label = service
    ? `${spoken} ${service} from ${below} into ${stage.name}`
    : `${spoken} from ${below} into ${stage.name}`;
  const button = (
    <Button
      size="small"
      variant={service ? 'text' : 'outlined'}
      color="primary"
      aria-label={label}
      disabled={!access.allowed || !promotable.allowed || blockedByPolicy}
      onClick={() => setOpen(true)}
      startIcon={props.compact ? undefined : <ArrowUpwardIcon />}
      className={props.compact ? classes.iconOnly : undefined}
      data-testid={`request-promotion-${key}`}
    >
      {/* 18 px: the size a small button gives its start icon. */}
      {props.compact ? <ArrowUpwardIcon style={{ fontSize: 18 }} /> : text}
    </Button>
  );
  const title = props.compact ? compactTitle(text, promotable.reason) : promotable.reason;
  // Disabled, it says why; an arrow alone does not say what it is, so a compact one names its label first.
  const explained = (reason: ReactNode) => (
    <ReasonTooltip
      testId={`why-${key}`}
      reason={
        props.compact ? (
          <>
            <Typography variant="subtitle2">{text}</Typography>
            {reason}
          </>
        ) : (
          reason
        )
      }
    >
      {button}
    </ReasonTooltip>
  );
  let action = <Tooltip title={title}>{button}</Tooltip>;
  if (!access.allowed) {
    action = explained(access.reason);
  } else if (blockedByPolicy) {
    const why = blocks.map(guard => guard.reason).join('; ');
    const overriding = kept.length
      ? `An override does not lift ${kept.map(block => block.guard).join(' or ')}`
      : override.reason;
    action = explained(`${why}. ${overriding}`);
  } else if (!promotable.allowed) {
    const checklists = rungChecklist(ladder, stage, service);
    action = explained(
      <>
        <Typography variant="body2" className={classes.reason}>
          {promotable.reason}
        </Typography>
        <PromotionChecklist checklists={checklists} from={below} to={stage.name} />
      </>,
    );
  }
  return (
    <>
      {props.offered !== false && action}
      {open && (
        <RequestPromotionDialog
          ladder={ladder}
          toStage={stage.name}
          service={service}
          blocks={blocks}
          onRequested={props.onRequested}
          onClose={() => setOpen(false)}
        />
      )}
    </>
  );
};
