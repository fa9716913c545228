import { useState } from 'react';
import { IconButton, Tooltip } from '@material-ui/core';
import HistoryIcon from '@material-ui/icons/History';
import { ProductRef } from '@refplat/plugin-promotions-common';
import { StageHistoryDialog } from './StageHistoryDialog';

/** Opens what was released into a stage, and when. */
export const StageHistoryButton = (props: { product: ProductRef; stage: string }) => {
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
          onClose={() => setOpen(false)}
        />
      )}
    </>
  );
};
