import { useState } from 'react';
import { LadderStage, ProductRef } from '@refplat/plugin-promotions-common';
import { LinkButton } from '../common/LinkButton';
import { StageHistoryDialog } from './StageHistoryDialog';

/**
 * Opens what was released into a stage, and when. Given the stage as the
 * ladder shows it now, each entry offers to revert its change or to restore
 * the state after it, where that would change something.
 */
export const StageHistoryButton = (props: {
  product: ProductRef;
  stage: string;
  current?: LadderStage;
  /** The ladder's first stage, which CI writes and nothing promotes into: a rollback there places no hold. */
  bottomRung?: boolean;
  onRolledBack?: () => void;
}) => {
  const [open, setOpen] = useState(false);
  return (
    <>
      <LinkButton
        label="History"
        name={`History of ${props.stage}`}
        title={`What was released into ${props.stage}, and rollbacks`}
        onClick={() => setOpen(true)}
        testId={`history-${props.stage}`}
      />
      {open && (
        <StageHistoryDialog
          product={props.product}
          stage={props.stage}
          current={props.current}
          bottomRung={props.bottomRung}
          onRolledBack={props.onRolledBack}
          onClose={() => setOpen(false)}
        />
      )}
    </>
  );
};
