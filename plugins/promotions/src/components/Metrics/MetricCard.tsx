import { ReactNode } from 'react';
import { InfoCard } from '@backstage/core-components';
import { Typography, makeStyles } from '@material-ui/core';

const useStyles = makeStyles(theme => ({
  definition: { marginTop: theme.spacing(1) },
  headline: { marginBottom: theme.spacing(1) },
}));

/** One metric: its headline numbers with sample counts, its charts, and its definition beside them. */
export const MetricCard = (props: {
  title: string;
  testId: string;
  headline: ReactNode;
  definition: string;
  children: ReactNode;
}) => {
  const classes = useStyles();
  return (
    <InfoCard title={props.title}>
      <div data-testid={props.testId}>
        <Typography variant="body1" className={classes.headline} data-testid={`${props.testId}-headline`}>
          {props.headline}
        </Typography>
        {props.children}
        <Typography variant="body2" color="textSecondary" className={classes.definition}>
          {props.definition}
        </Typography>
      </div>
    </InfoCard>
  );
};
