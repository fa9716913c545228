import { useState } from 'react';
import { Button, Tooltip } from '@material-ui/core';
import UndoIcon from '@material-ui/icons/Undo';
import { LadderStage, ProductRef, StageHistoryEntry } from '@refplat/plugin-promotions-common';
import { useChangeAccess } from '../../access/useChangeAccess';
import { ReasonTooltip } from '../common/ReasonTooltip';
import { RollbackDialog } from './RollbackDialog';
import { rollbackChanges } from './rollbackChanges';

/**
 * Rolls a stage back to a history entry's digests, for the services where
 * they differ from what the stage names now; absent when none differ, and
 * disabled with the reason for those who may not request rollbacks.
 */
export const RollbackButton = (props: {
  product: ProductRef;
  stage: LadderStage;
  entry: StageHistoryEntry;
  onRolledBack: () => void;
}) => {
  const { stage, entry } = props;
  const [open, setOpen] = useState(false);
  const access = useChangeAccess(props.product, 'request-rollback');
  const changes = rollbackChanges(stage, entry);
  if (changes.length === 0 && !open) return null;
  const button = (
    <Button
      size="small"
      variant="outlined"
      startIcon={<UndoIcon />}
      disabled={!access.allowed || changes.length === 0}
      onClick={() => setOpen(true)}
      data-testid={`rollback-${entry.revision}`}
    >
      Roll back
    </Button>
  );
  return (
    <>
      {access.allowed ? (
        <Tooltip title={`Write ${changes.map(c => c.service).join(', ')} back to this entry's digests`}>
          {button}
        </Tooltip>
      ) : (
        <ReasonTooltip reason={access.reason} testId={`rollback-why-${entry.revision}`}>
          {button}
        </ReasonTooltip>
      )}
      {open && (
        <RollbackDialog
          product={props.product}
          stage={stage}
          entry={entry}
          changes={changes}
          onRolledBack={props.onRolledBack}
          onClose={() => setOpen(false)}
        />
      )}
    </>
  );
};
