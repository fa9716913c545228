import { useState } from 'react';
import { IconButton, Tooltip } from '@material-ui/core';
import CompareArrowsIcon from '@material-ui/icons/CompareArrows';
import { ProductRef } from '@refplat/plugin-promotions-common';
import { WhatChangedDialog } from './WhatChangedDialog';

/** Opens what a promotion from the stage below into `toStage` would ship. */
export const WhatChangedButton = (props: {
  product: ProductRef;
  fromStage: string;
  toStage: string;
}) => {
  const [open, setOpen] = useState(false);
  const label = `What changed from ${props.fromStage} to ${props.toStage}`;
  return (
    <>
      <Tooltip title={label}>
        <IconButton
          size="small"
          aria-label={label}
          onClick={() => setOpen(true)}
          data-testid={`changes-${props.toStage}`}
        >
          <CompareArrowsIcon fontSize="small" />
        </IconButton>
      </Tooltip>
      {open && (
        <WhatChangedDialog
          product={props.product}
          fromStage={props.fromStage}
          toStage={props.toStage}
          onClose={() => setOpen(false)}
        />
      )}
    </>
  );
};
