import { Fragment } from 'react';
import { approverRefs } from '@refplat/plugin-promotions-common';
import { ActorName } from './ActorName';

/** Everyone a promotion's `approvedBy` names (a quorum has several), each by their catalog name. */
export const ApproverNames = (props: { approvedBy: string }) => (
  <>
    {approverRefs(props.approvedBy).map((ref, index) => (
      <Fragment key={ref}>
        {index > 0 && ', '}
        <ActorName actor={ref} />
      </Fragment>
    ))}
  </>
);
