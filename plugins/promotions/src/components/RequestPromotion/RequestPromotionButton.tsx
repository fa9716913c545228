import { useState } from 'react';
import { Button, IconButton, Tooltip } from '@material-ui/core';
import ArrowUpwardIcon from '@material-ui/icons/ArrowUpward';
import {
  Ladder,
  LadderStage,
  promotability,
  promotionRequestPermission,
} from '@refplat/plugin-promotions-common';
import { useProductPermission } from '../../hooks/useProductPermission';
import { WhyCantIPromote } from '../Checklist/WhyCantIPromote';
import { rungChecklist } from '../Checklist/rungChecklist';
import { RequestPromotionDialog } from './RequestPromotionDialog';

/**
 * Requests a promotion into `stage` from the stage below: the whole rung, or
 * one service when `service` is given. Disabled, with the reason on hover,
 * when the ladder or the permission policy says no; absent on the first stage.
 * When the ladder says no, a "why?" beside it lists each gate with ✓/✗.
 */
export const RequestPromotionButton = (props: {
  ladder: Ladder;
  stage: LadderStage;
  service?: string;
  onRequested: () => void;
}) => {
  const { ladder, stage, service } = props;
  const [open, setOpen] = useState(false);
  const permission = useProductPermission(promotionRequestPermission, ladder);

  const index = ladder.stages.findIndex(candidate => candidate.name === stage.name);
  if (index <= 0) return null;

  const promotable =
    (service ? stage.services[service]?.promotion : stage.promotion) ??
    promotability(ladder, stage.name, service);
  let disabledReason: string | undefined;
  if (!permission.allowed) {
    disabledReason = permission.loading
      ? 'Checking whether you may request promotions'
      : 'You may not request promotions';
  } else if (!promotable.allowed) {
    disabledReason = promotable.reason;
  }

  const label = service
    ? `Request promotion of ${service} into ${stage.name}`
    : `Request promotion into ${stage.name}`;
  const testId = service
    ? `request-promotion-${stage.name}-${service}`
    : `request-promotion-${stage.name}`;

  return (
    <>
      <Tooltip title={disabledReason ?? promotable.reason}>
        {/* A disabled button fires no hover events: the span carries the reason. */}
        <span>
          {service ? (
            <IconButton
              size="small"
              aria-label={label}
              disabled={!!disabledReason}
              onClick={() => setOpen(true)}
              data-testid={testId}
            >
              <ArrowUpwardIcon fontSize="small" />
            </IconButton>
          ) : (
            <Button
              size="small"
              variant="outlined"
              color="primary"
              aria-label={label}
              disabled={!!disabledReason}
              onClick={() => setOpen(true)}
              startIcon={<ArrowUpwardIcon />}
              data-testid={testId}
            >
              Request promotion
            </Button>
          )}
        </span>
      </Tooltip>
      {disabledReason && !promotable.allowed && (
        <WhyCantIPromote
          testId={service ? `why-${stage.name}-${service}` : `why-${stage.name}`}
          reason={promotable.reason}
          checklists={rungChecklist(ladder, stage, service)}
        />
      )}
      {open && (
        <RequestPromotionDialog
          ladder={ladder}
          toStage={stage.name}
          service={service}
          onRequested={props.onRequested}
          onClose={() => setOpen(false)}
        />
      )}
    </>
  );
};
