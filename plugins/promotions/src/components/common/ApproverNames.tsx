import { Fragment } from 'react';
import { approverRefs } from '@refplat/plugin-promotions-common';
import { ActorName } from './ActorName';

/**
 * Everyone a promotion's `approvedBy` names (a quorum has several), or the
 * approvers given, each by their catalog name.
 */
export const ApproverNames = (props: { approvedBy: string } | { approvers: string[] }) => (
  <>
    {('approvers' in props ? props.approvers : approverRefs(props.approvedBy)).map((ref, index) => (
      <Fragment key={ref}>
        {index > 0 && ', '}
        <ActorName actor={ref} />
      </Fragment>
    ))}
  </>
);
