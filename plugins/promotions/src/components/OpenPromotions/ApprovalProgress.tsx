import { Tooltip, Typography } from '@material-ui/core';
import { PromotionApproval, commanderApproved } from '@refplat/plugin-promotions-common';
import { DateTime } from 'luxon';
import { ActorName } from '../common/ActorName';

/**
 * "1 of 2 approvals" under a promotion's status (and whether an incident
 * commander's approval is still needed); hovering names who approved its
 * head and when.
 */
export const ApprovalProgress = (props: { approval: PromotionApproval; testId: string }) => {
  const { approval } = props;
  const who = approval.approvals.length ? (
    approval.approvals.map(a => (
      <div key={`${a.role}-${a.approver}`}>
        <ActorName actor={a.approver} />
        {a.role === 'incident-commander' ? ' (incident commander)' : ''},{' '}
        {DateTime.fromISO(a.at).toLocaleString(DateTime.DATETIME_MED)}
      </div>
    ))
  ) : (
    'Nobody has approved its current head yet'
  );
  return (
    <Tooltip title={<>{who}</>}>
      <Typography variant="caption" color="textSecondary" component="div" data-testid={props.testId}>
        {approval.progress} approvals
        {approval.commanderNeeded &&
          (commanderApproved(approval) ? ' and an incident commander’s' : '; an incident commander’s needed too')}
      </Typography>
    </Tooltip>
  );
};
