import { Typography, makeStyles } from '@material-ui/core';
import { Promotion } from '@refplat/plugin-promotions-common';
import { DigestChange } from '../common/DigestChange';

const useStyles = makeStyles(theme => ({
  // In a narrow column the change goes under its service's name, whole.
  service: { display: 'flex', flexWrap: 'wrap', columnGap: theme.spacing(0.5) },
}));

/** Each service a promotion carries: the target's digest before → after. */
export const PromotionDigests = (props: {
  promotion: Promotion;
  testIdPrefix?: string;
}) => {
  const classes = useStyles();
  return (
    <>
      {Object.entries(props.promotion.services).map(([service, digest]) => (
        <Typography
          key={service}
          component="div"
          variant="body2"
          className={classes.service}
          data-testid={props.testIdPrefix ? `${props.testIdPrefix}${service}` : undefined}
        >
          <span>{service}:</span>{' '}
          <DigestChange from={props.promotion.previousServices?.[service]} to={digest} />
        </Typography>
      ))}
    </>
  );
};
