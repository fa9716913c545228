import { useState } from 'react';
import { Button, Tooltip } from '@material-ui/core';
import UndoIcon from '@material-ui/icons/Undo';
import RestoreIcon from '@material-ui/icons/Restore';
import {
  LadderStage,
  planRollback,
  ProductRef,
  RollbackKind,
  RollbackPlan,
  StageHistoryEntry,
} from '@refplat/plugin-promotions-common';
import { useChangeAccess } from '../../access/useChangeAccess';
import { ReasonTooltip } from '../common/ReasonTooltip';
import { RollbackDialog } from './RollbackDialog';
import { ROLLBACK_WORDS } from './rollbackWords';

const ICONS: Record<RollbackKind, JSX.Element> = {
  revert: <UndoIcon />,
  restore: <RestoreIcon />,
};

/** Why a row's rollback of this kind would write nothing. */
function nothingToDo(kind: RollbackKind, plan: RollbackPlan): string {
  const why = plan.skipped.map(s => `${s.service}: ${s.reason}`).join('; ');
  return `Nothing to ${ROLLBACK_WORDS[kind].verb.toLowerCase()}. ${why}`;
}

/**
 * Reverts a history row's change or restores the state after it (see
 * planRollback): absent when the row gives it nothing to say, disabled with
 * the reason when it would write nothing or the viewer may not request
 * rollbacks.
 */
export const RollbackButton = (props: {
  kind: RollbackKind;
  product: ProductRef;
  stage: LadderStage;
  /** The ladder's first stage, which CI writes and nothing promotes into: a rollback there places no hold. */
  bottomRung?: boolean;
  entry: StageHistoryEntry;
  onRolledBack: () => void;
}) => {
  const { kind, stage, entry } = props;
  const [open, setOpen] = useState(false);
  const access = useChangeAccess(props.product, 'request-rollback');
  const plan = planRollback(kind, stage, entry);
  const words = ROLLBACK_WORDS[kind];
  if (plan.changes.length === 0 && plan.skipped.length === 0 && !open) return null;
  const reason = access.allowed
    ? plan.changes.length === 0 && nothingToDo(kind, plan)
    : access.reason;
  const button = (
    <Button
      size="small"
      variant="outlined"
      startIcon={ICONS[kind]}
      disabled={!!reason}
      onClick={() => setOpen(true)}
      data-testid={`rollback-${kind}-${entry.revision}`}
    >
      {words.label}
    </Button>
  );
  return (
    <>
      {reason ? (
        <ReasonTooltip reason={reason} testId={`rollback-why-${kind}-${entry.revision}`}>
          {button}
        </ReasonTooltip>
      ) : (
        <Tooltip title={words.what(plan.changes.map(c => c.service))}>{button}</Tooltip>
      )}
      {open && (
        <RollbackDialog
          kind={kind}
          product={props.product}
          stage={stage}
          bottomRung={props.bottomRung}
          entry={entry}
          plan={plan}
          onRolledBack={props.onRolledBack}
          onClose={() => setOpen(false)}
        />
      )}
    </>
  );
};
