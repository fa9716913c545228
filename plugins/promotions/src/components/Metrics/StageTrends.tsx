import { CartesianGrid, Line, LineChart, Tooltip, XAxis, YAxis } from 'recharts';
import { Typography, makeStyles } from '@material-ui/core';
import { ChartBox, SERIES_COLOURS } from './chartParts';

/** One trend point: its slice's label and a count per stage. */
type StageTrendPoint = { label: string } & Record<string, number | string>;

const useStyles = makeStyles(theme => ({
  // As many charts to a row as fit at a readable width: all five stages side by side at 1280 px.
  grid: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fit, minmax(160px, 1fr))',
    gap: theme.spacing(2),
  },
}));

/**
 * A count per stage week by week as small multiples: one small chart per
 * stage, in the ladder's order, all on the same scale. Stages that deploy
 * alike would draw on top of each other in one chart; side by side each is
 * seen, and equal heights mean equal counts.
 */
export const StageTrends = (props: { title: string; stages: string[]; trend: StageTrendPoint[] }) => {
  const classes = useStyles();
  const counts = props.trend.flatMap(point => props.stages.map(stage => Number(point[stage] ?? 0)));
  const top = Math.max(1, ...counts);
  return (
    <section aria-label={props.title} data-testid="stage-trends">
      <Typography variant="subtitle2" component="h3" gutterBottom>
        {props.title}
      </Typography>
      <div className={classes.grid}>
        {props.stages.map(stage => (
          <div key={stage} data-testid={`stage-trend-${stage}`}>
            <Typography variant="body2" component="h4" align="center">
              {stage}
            </Typography>
            <ChartBox title={`${props.title}: ${stage}`} height={140}>
              <LineChart data={props.trend} margin={{ top: 8, right: 12, bottom: 0, left: 0 }}>
                <CartesianGrid strokeDasharray="3 3" />
                {/* The first and last week name the span; the grid marks the weeks between. */}
                <XAxis dataKey="label" interval="preserveStartEnd" />
                <YAxis domain={[0, top]} allowDecimals={false} width={32} />
                <Tooltip />
                <Line dataKey={stage} name={stage} stroke={SERIES_COLOURS[0]} isAnimationActive={false} />
              </LineChart>
            </ChartBox>
          </div>
        ))}
      </div>
    </section>
  );
};
