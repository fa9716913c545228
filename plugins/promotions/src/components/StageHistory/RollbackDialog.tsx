import { useState } from 'react';
import { Typography } from '@material-ui/core';
import Alert from '@material-ui/lab/Alert';
import { useApi } from '@backstage/core-plugin-api';
import { LadderStage, ProductRef, RollbackKind, RollbackPlan, StageHistoryEntry, releaseApprovers } from '@refplat/plugin-promotions-common';
import { promotionsApiRef } from '../../api';
import { useSubmitAction } from '../../hooks/useSubmitAction';
import { ConfirmDialog } from '../common/ConfirmDialog';
import { DigestChangesTable } from '../common/DigestChangesTable';
import { PromotionStatusChip } from '../common/PromotionStatusChip';
import { PullRequestLink } from '../common/PullRequestLink';
import { useSectionStyles } from '../common/styles';
import { ROLLBACK_WORDS, shortCommit } from './rollbackWords';

function whatHappensNext(stage: LadderStage, services: string[], bottomRung: boolean): string {
  const merge = stage.requiresApproval
    ? `Needs ${releaseApprovers(stage.approvalQuorum)} before it merges.`
    : 'Merges without waiting for another stage.';
  // Nothing promotes into the bottom rung, so nothing is held there: CI's next build replaces it.
  const after = bottomRung
    ? `CI's next release into ${stage.name} replaces it.`
    : `The auto-promoter will hold ${services.join(', ')} in ${stage.name} until someone resumes it.`;
  return `${merge} ${after}`;
}

/**
 * Confirms a revert of a history row's change or a restore of the state
 * after it, naming every digest it writes (and every Service it leaves
 * alone), then opens the rollback PR.
 */
export const RollbackDialog = (props: {
  kind: RollbackKind;
  product: ProductRef;
  stage: LadderStage;
  /** The ladder's first stage, which CI writes and nothing promotes into: a rollback there places no hold. */
  bottomRung?: boolean;
  entry: StageHistoryEntry;
  plan: RollbackPlan;
  onRolledBack: () => void;
  onClose: () => void;
}) => {
  const classes = useSectionStyles();
  const api = useApi(promotionsApiRef);
  const { stage, entry } = props;
  const words = ROLLBACK_WORDS[props.kind];
  // What the user confirmed, even if a ladder refresh changes the stage meanwhile.
  const [{ changes, skipped }] = useState(props.plan);
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
      title={words.title(stage.name, shortCommit(entry.revision))}
      confirmLabel={words.verb}
      busyLabel="Requesting…"
      busy={rollback.busy}
      error={rollback.error}
      done={!!response}
      onConfirm={rollback.submit}
      onClose={props.onClose}
    >
      <Typography variant="body2" color="textSecondary">
        {shortCommit(entry.revision)} · {entry.message} ({entry.author},{' '}
        {new Date(entry.date).toLocaleString()})
      </Typography>
      <DigestChangesTable
        className={classes.section}
        ariaLabel={`Digests the ${words.verb.toLowerCase()} writes`}
        heading={`${stage.name} now → after the ${words.verb.toLowerCase()}`}
        rowTestIdPrefix="rollback-change-"
        changes={changes.map(c => ({ service: c.service, current: c.current, next: c.target }))}
      />
      {skipped.length > 0 && (
        <Alert severity="warning" className={classes.section} data-testid="rollback-skipped">
          Left as they are:
          <ul>
            {skipped.map(s => (
              <li key={s.service} data-testid={`rollback-skipped-${s.service}`}>
                {s.service}: {s.reason}
              </li>
            ))}
          </ul>
        </Alert>
      )}
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
          {whatHappensNext(stage, changes.map(c => c.service), props.bottomRung ?? false)}
        </Alert>
      )}
    </ConfirmDialog>
  );
};
