import { useState } from 'react';
import { Typography } from '@material-ui/core';
import Alert from '@material-ui/lab/Alert';
import { useApi } from '@backstage/core-plugin-api';
import {
  LadderStage,
  ProductRef,
  StageHistoryEntry,
} from '@refplat/plugin-promotions-common';
import { promotionsApiRef } from '../../api';
import { useSubmitAction } from '../../hooks/useSubmitAction';
import { ConfirmDialog } from '../common/ConfirmDialog';
import { DigestChangesTable } from '../common/DigestChangesTable';
import { PromotionStatusChip } from '../common/PromotionStatusChip';
import { PullRequestLink } from '../common/PullRequestLink';
import { useSectionStyles } from '../common/styles';
import { RollbackChange } from './rollbackChanges';

function whatHappensNext(stage: LadderStage, services: string[]): string {
  const merge = stage.requiresApproval
    ? 'Needs a release-approver before it merges.'
    : 'Merges without waiting for another stage.';
  return `${merge} The auto-promoter will hold ${services.join(', ')} in ${
    stage.name
  } until someone resumes it.`;
}

/** Confirms writing a history entry's digests back into its stage, then opens the rollback PR. */
export const RollbackDialog = (props: {
  product: ProductRef;
  stage: LadderStage;
  entry: StageHistoryEntry;
  changes: RollbackChange[];
  onRolledBack: () => void;
  onClose: () => void;
}) => {
  const classes = useSectionStyles();
  const api = useApi(promotionsApiRef);
  const { stage, entry } = props;
  // What the user confirmed, even if a ladder refresh changes the stage meanwhile.
  const [changes] = useState(props.changes);
  const rollback = useSubmitAction(
    () =>
      api.requestRollback(
        { team: props.product.team, product: props.product.product },
        {
          stage: stage.name,
          services: Object.fromEntries(changes.map(c => [c.service, c.target])),
        },
      ),
    props.onRolledBack,
  );
  const response = rollback.result;

  return (
    <ConfirmDialog
      testIdPrefix="rollback"
      maxWidth="md"
      title={
        <>
          Roll back {stage.name} to {entry.revision.slice(0, 7)}
        </>
      }
      confirmLabel="Roll back"
      busyLabel="Requesting…"
      busy={rollback.busy}
      error={rollback.error}
      done={!!response}
      onConfirm={rollback.submit}
      onClose={props.onClose}
    >
      <Typography variant="body2" color="textSecondary">
        {entry.message} ({entry.author}, {new Date(entry.date).toLocaleString()})
      </Typography>
      <DigestChangesTable
        className={classes.section}
        ariaLabel="Digests rolled back"
        heading={`${stage.name} now → after the rollback`}
        rowTestIdPrefix="rollback-change-"
        changes={changes.map(c => ({ service: c.service, current: c.current, next: c.target }))}
      />
      {response ? (
        <Alert severity="success" className={classes.section} data-testid="rollback-result">
          {response.existing
            ? 'This rollback was already open; no second pull request was opened: '
            : 'Opened the rollback pull request '}
          <PullRequestLink pullRequest={response.promotion.pullRequest} testId="rollback-pr-link" />{' '}
          <PromotionStatusChip
            status={response.promotion.status}
            reason={response.promotion.statusReason}
          />
        </Alert>
      ) : (
        <Alert severity="info" className={classes.section} data-testid="rollback-next-step">
          {whatHappensNext(stage, changes.map(c => c.service))}
        </Alert>
      )}
    </ConfirmDialog>
  );
};
