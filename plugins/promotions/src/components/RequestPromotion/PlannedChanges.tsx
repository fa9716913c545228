import { releaseApprovers } from '@refplat/plugin-promotions-common';
import { Fragment, ReactNode } from 'react';
import { Typography } from '@material-ui/core';
import Alert from '@material-ui/lab/Alert';
import { ActorName } from '../common/ActorName';
import { DigestChangesTable } from '../common/DigestChangesTable';
import { useSectionStyles } from '../common/styles';
import { PromotionPreview } from './previewPromotion';

function whatHappensNext(preview: PromotionPreview, approvers: string[]): ReactNode {
  if (!preview.requiresApproval) {
    return `Merges automatically once ${preview.fromStage} is healthy.`;
  }
  const needed = releaseApprovers(preview.approvalQuorum);
  if (!approvers.length) return `Needs ${needed} before it merges.`;
  return (
    <>
      Needs {needed} (members of{' '}
      {approvers.map((group, index) => (
        <Fragment key={group}>
          {index > 0 && ', '}
          <ActorName actor={group} link />
        </Fragment>
      ))}
      ) before it merges.
    </>
  );
}

/** What a promotion would change, what it leaves alone and why, and what follows. */
export const PlannedChanges = (props: {
  preview: PromotionPreview;
  approvers: string[];
}) => {
  const classes = useSectionStyles();
  const { preview } = props;
  return (
    <>
      <Typography>
        Target stage: <strong>{preview.toStage}</strong>
      </Typography>
      <Typography>
        Source stage: <strong>{preview.fromStage ?? 'none'}</strong>
      </Typography>

      {preview.refusal && (
        <Alert severity="warning" className={classes.section} data-testid="promotion-refusal">
          By the ladder on screen nothing can be promoted now: {preview.refusal}
        </Alert>
      )}

      {preview.changes.length > 0 && (
        <DigestChangesTable
          className={classes.section}
          ariaLabel="Digests that change"
          heading={`${preview.toStage} now → after the promotion`}
          rowTestIdPrefix="promotion-change-"
          changes={preview.changes}
        />
      )}

      {preview.left.length > 0 && (
        <div className={classes.section}>
          <Typography variant="subtitle2">Not included</Typography>
          {preview.left.map(entry => (
            <Typography
              key={entry.service}
              variant="body2"
              data-testid={`promotion-left-${entry.service}`}
            >
              <strong>{entry.service}</strong>: {entry.reason}
            </Typography>
          ))}
        </div>
      )}

      <Alert severity="info" className={classes.section} data-testid="promotion-next-step">
        {whatHappensNext(preview, props.approvers)}
      </Alert>
    </>
  );
};
