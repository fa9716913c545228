import { Chip, makeStyles } from '@material-ui/core';

const useStyles = makeStyles(theme => ({
  root: { display: 'flex', flexWrap: 'wrap', gap: theme.spacing(1), marginBottom: theme.spacing(2) },
}));

/** "All stages" or one stage, as chips: the selected one filled. */
export const StageFilter = (props: {
  stages: string[];
  selected?: string;
  onSelect: (stage?: string) => void;
}) => {
  const classes = useStyles();
  const option = (label: string, stage?: string) => (
    <Chip
      key={label}
      label={label}
      clickable
      color={props.selected === stage ? 'primary' : 'default'}
      variant={props.selected === stage ? 'default' : 'outlined'}
      onClick={() => props.onSelect(stage)}
      aria-pressed={props.selected === stage}
      data-testid={`stage-filter-${stage ?? 'all'}`}
    />
  );
  return (
    <div className={classes.root} role="group" aria-label="Filter by stage">
      {option('All stages')}
      {props.stages.map(stage => option(stage, stage))}
    </div>
  );
};
