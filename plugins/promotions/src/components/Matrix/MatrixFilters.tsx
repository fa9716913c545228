import { useState } from 'react';
import useDebounce from 'react-use/esm/useDebounce';
import { MenuItem, TextField, makeStyles } from '@material-ui/core';
import { OverviewCriteria, OverviewFilter } from '@refplat/plugin-promotions-common';

const useStyles = makeStyles(theme => ({
  filters: { display: 'flex', flexWrap: 'wrap', gap: theme.spacing(2), marginBottom: theme.spacing(2) },
  field: { minWidth: 200 },
}));

const FILTER_WORDS: Record<OverviewFilter | 'all', string> = {
  all: 'All Products',
  mine: 'Mine',
  stuck: 'Stuck only',
  'awaiting-approval': 'Awaiting approval',
};

/**
 * Owner group, team, and one of mine / stuck only / awaiting approval; the
 * backend filters. Reported once typing pauses, so a keystroke is not a request.
 */
export const MatrixFilters = (props: { onChange: (criteria: OverviewCriteria) => void }) => {
  const classes = useStyles();
  const [filter, setFilter] = useState<OverviewFilter | 'all'>('all');
  const [owner, setOwner] = useState('');
  const [team, setTeam] = useState('');
  useDebounce(
    () =>
      props.onChange({
        filter: filter === 'all' ? undefined : filter,
        owner: owner.trim() || undefined,
        team: team.trim() || undefined,
      }),
    300,
    [filter, owner, team],
  );
  return (
    <div className={classes.filters} data-testid="matrix-filters">
      <TextField
        select
        className={classes.field}
        label="Show"
        value={filter}
        onChange={e => setFilter(e.target.value as OverviewFilter | 'all')}
        inputProps={{ 'data-testid': 'matrix-filter' }}
      >
        {Object.entries(FILTER_WORDS).map(([value, words]) => (
          <MenuItem key={value} value={value} data-testid={`matrix-filter-${value}`}>
            {words}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        className={classes.field}
        label="Owner group"
        value={owner}
        onChange={e => setOwner(e.target.value)}
        inputProps={{ 'data-testid': 'matrix-owner' }}
      />
      <TextField
        className={classes.field}
        label="Team"
        value={team}
        onChange={e => setTeam(e.target.value)}
        inputProps={{ 'data-testid': 'matrix-team' }}
      />
    </div>
  );
};
