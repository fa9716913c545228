import { useState } from 'react';
import { Button, Tooltip } from '@material-ui/core';
import UndoIcon from '@material-ui/icons/Undo';
import {
  LadderStage,
  ProductRef,
  StageHistoryEntry,
  promotionRequestPermission,
} from '@refplat/plugin-promotions-common';
import { useProductPermission } from '../../hooks/useProductPermission';
import { RollbackDialog } from './RollbackDialog';
import { rollbackChanges } from './rollbackChanges';

/**
 * Rolls a stage back to a history entry's digests, for the services where
 * they differ from what the stage names now; absent when none differ.
 */
export const RollbackButton = (props: {
  product: ProductRef;
  stage: LadderStage;
  entry: StageHistoryEntry;
  onRolledBack: () => void;
}) => {
  const { stage, entry } = props;
  const [open, setOpen] = useState(false);
  const permission = useProductPermission(promotionRequestPermission, props.product);
  const changes = rollbackChanges(stage, entry);
  if (changes.length === 0 && !open) return null;

  let disabledReason: string | undefined;
  if (!permission.allowed) {
    disabledReason = permission.loading
      ? 'Checking whether you may request rollbacks'
      : 'You may not request rollbacks';
  }

  return (
    <>
      <Tooltip
        title={
          disabledReason ??
          `Write ${changes.map(c => c.service).join(', ')} back to this entry's digests`
        }
      >
        {/* A disabled button fires no hover events: the span carries the reason. */}
        <span>
          <Button
            size="small"
            variant="outlined"
            startIcon={<UndoIcon />}
            disabled={!!disabledReason || changes.length === 0}
            onClick={() => setOpen(true)}
            data-testid={`rollback-${entry.revision}`}
          >
            Roll back
          </Button>
        </span>
      </Tooltip>
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
