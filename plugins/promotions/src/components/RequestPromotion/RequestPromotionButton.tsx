import { useState } from 'react';
import { Button, Tooltip, Typography, makeStyles } from '@material-ui/core';
import ArrowUpwardIcon from '@material-ui/icons/ArrowUpward';
import { Ladder, LadderStage, promotability } from '@refplat/plugin-promotions-common';
import { useChangeAccess, useOverrideAccess } from '../../access/useChangeAccess';
import { PromotionChecklist } from '../Checklist/PromotionChecklist';
import { rungChecklist } from '../Checklist/rungChecklist';
import { ReasonTooltip } from '../common/ReasonTooltip';
import { RequestPromotionDialog } from './RequestPromotionDialog';

const useStyles = makeStyles(theme => ({
  reason: { marginBottom: theme.spacing(1) },
}));

/**
 * Requests a promotion into `stage` from the stage below: the whole rung, or
 * one service. When the ladder, the permission policy or the Product's owners
 * say no, it is disabled and hovering it says why, with the gates that block
 * (one affordance, not a button and a "why?" beside it). A guard's block (a
 * freeze window) disables it too, except for release-approvers, whose dialog
 * then asks for the override's reason. `label` names a
 * replacement of the promotion in flight.
 */
export const RequestPromotionButton = (props: {
  ladder: Ladder;
  stage: LadderStage;
  service?: string;
  label?: string;
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
  // A guard's block (a freeze window) stops everyone but release-approvers, who may override it.
  const blocks = (stage.guards ?? []).filter(guard => guard.verdict === 'block');
  const blockedByPolicy = blocks.length > 0 && !override.allowed;
  const key = service ? `${stage.name}-${service}` : stage.name;
  const label = service
    ? `Request promotion of ${service} from ${below} into ${stage.name}`
    : `Request promotion from ${below} into ${stage.name}`;
  const button = (
    <Button
      size="small"
      variant={service ? 'text' : 'outlined'}
      color="primary"
      aria-label={label}
      disabled={!access.allowed || !promotable.allowed || blockedByPolicy}
      onClick={() => setOpen(true)}
      startIcon={<ArrowUpwardIcon />}
      data-testid={`request-promotion-${key}`}
    >
      {props.label ?? 'Promote'}
    </Button>
  );
  let action = <Tooltip title={promotable.reason}>{button}</Tooltip>;
  if (!access.allowed) {
    action = (
      <ReasonTooltip reason={access.reason} testId={`why-${key}`}>
        {button}
      </ReasonTooltip>
    );
  } else if (blockedByPolicy) {
    const why = blocks.map(guard => guard.reason).join('; ');
    action = (
      <ReasonTooltip reason={`${why}. ${override.reason}`} testId={`why-${key}`}>
        {button}
      </ReasonTooltip>
    );
  } else if (!promotable.allowed) {
    const checklists = rungChecklist(ladder, stage, service);
    action = (
      <ReasonTooltip
        testId={`why-${key}`}
        reason={
          <>
            <Typography variant="body2" className={classes.reason}>
              {promotable.reason}
            </Typography>
            <PromotionChecklist checklists={checklists} from={below} to={stage.name} />
          </>
        }
      >
        {button}
      </ReasonTooltip>
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
