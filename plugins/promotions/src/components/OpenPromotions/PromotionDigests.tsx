import { Typography } from '@material-ui/core';
import { Promotion } from '@refplat/plugin-promotions-common';
import { DigestChange } from '../common/DigestChange';

/** Each service a promotion carries: the target's digest before → after. */
export const PromotionDigests = (props: {
  promotion: Promotion;
  testIdPrefix?: string;
}) => (
  <>
    {Object.entries(props.promotion.services).map(([service, digest]) => (
      <Typography
        key={service}
        component="div"
        variant="body2"
        style={{ whiteSpace: 'nowrap' }}
        data-testid={props.testIdPrefix ? `${props.testIdPrefix}${service}` : undefined}
      >
        {service}:{' '}
        <DigestChange from={props.promotion.previousServices?.[service]} to={digest} />
      </Typography>
    ))}
  </>
);
