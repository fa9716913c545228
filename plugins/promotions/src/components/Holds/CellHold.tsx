import { useState } from 'react';
import { Button, IconButton, Tooltip } from '@material-ui/core';
import LockOutlinedIcon from '@material-ui/icons/LockOutlined';
import {
  Hold,
  ProductRef,
  promotionHoldPermission,
} from '@refplat/plugin-promotions-common';
import { useProductPermission } from '../../hooks/useProductPermission';
import { FreezeDialog } from './FreezeDialog';
import { HoldChip } from './HoldChip';
import { ResumeHoldDialog } from './ResumeHoldDialog';

/**
 * A cell's hold: the "Held" chip and Resume, or Freeze when there is none.
 * The buttons only show for users who may manage holds.
 */
export const CellHold = (props: {
  product: ProductRef;
  stage: string;
  service: string;
  hold?: Hold;
  onChanged: () => void;
}) => {
  const { product, stage, service, hold } = props;
  const [dialog, setDialog] = useState<'resume' | 'freeze'>();
  const permission = useProductPermission(promotionHoldPermission, product);
  const key = `${stage}-${service}`;

  return (
    <>
      {hold && <HoldChip hold={hold} testId={`hold-${key}`} />}
      {hold && permission.allowed && (
        <Button
          size="small"
          color="primary"
          onClick={() => setDialog('resume')}
          data-testid={`resume-${key}`}
        >
          Resume
        </Button>
      )}
      {!hold && permission.allowed && (
        <Tooltip title={`Freeze ${service} in ${stage}`}>
          <IconButton
            size="small"
            aria-label={`Freeze ${service} in ${stage}`}
            onClick={() => setDialog('freeze')}
            data-testid={`freeze-${key}`}
          >
            <LockOutlinedIcon fontSize="small" />
          </IconButton>
        </Tooltip>
      )}
      {dialog === 'resume' && hold && (
        <ResumeHoldDialog
          product={product}
          hold={hold}
          onResumed={props.onChanged}
          onClose={() => setDialog(undefined)}
        />
      )}
      {dialog === 'freeze' && (
        <FreezeDialog
          product={product}
          stage={stage}
          service={service}
          onFrozen={props.onChanged}
          onClose={() => setDialog(undefined)}
        />
      )}
    </>
  );
};
