import { useState } from 'react';
import { IconButton, Tooltip } from '@material-ui/core';
import HistoryIcon from '@material-ui/icons/History';
import { LadderStage, ProductRef } from '@refplat/plugin-promotions-common';
import { StageHistoryDialog } from './StageHistoryDialog';

/**
 * Opens what was released into a stage, and when. Given the stage as the
 * ladder shows it now, entries that differ from it offer a rollback.
 */
export const StageHistoryButton = (props: {
  product: ProductRef;
  stage: string;
  current?: LadderStage;
  onRolledBack?: () => void;
}) => {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Tooltip title={`History of ${props.stage}`}>
        <IconButton
          size="small"
          aria-label={`History of ${props.stage}`}
          onClick={() => setOpen(true)}
          data-testid={`history-${props.stage}`}
        >
          <HistoryIcon fontSize="small" />
        </IconButton>
      </Tooltip>
      {open && (
        <StageHistoryDialog
          product={props.product}
          stage={props.stage}
          current={props.current}
          onRolledBack={props.onRolledBack}
          onClose={() => setOpen(false)}
        />
      )}
    </>
  );
};
