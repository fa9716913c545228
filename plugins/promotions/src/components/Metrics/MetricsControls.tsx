import { FormEvent, useState } from 'react';
import { Button, MenuItem, TextField, makeStyles } from '@material-ui/core';
import { parseProductRef } from '@refplat/plugin-promotions-common';
import { MetricsScope } from '../../api';

/** The scope and window the metrics are read for. */
export interface MetricsSelection {
  scope: MetricsScope;
  from: Date;
  to: Date;
}

const useStyles = makeStyles(theme => ({
  form: { display: 'flex', flexWrap: 'wrap', gap: theme.spacing(2), alignItems: 'flex-end', marginBottom: theme.spacing(2) },
}));

const dayInput = (date: Date) => date.toISOString().slice(0, 10);
const dayValue = (text: string) => new Date(`${text}T00:00:00Z`);

function scopeFrom(kind: MetricsScope['kind'], name: string): MetricsScope | undefined {
  if (kind === 'org') return { kind };
  if (kind === 'team') return name.trim() ? { kind, team: name.trim() } : undefined;
  const product = parseProductRef(name.trim());
  return product ? { kind, product } : undefined;
}

function nameOf(scope: MetricsScope): string {
  if (scope.kind === 'team') return scope.team;
  if (scope.kind === 'product') return `${scope.product.team}/${scope.product.product}`;
  return '';
}

/** Organisation, a team or one Product, and the window (whole UTC days, `to` exclusive). */
export const MetricsControls = (props: {
  selection: MetricsSelection;
  onChange: (selection: MetricsSelection) => void;
}) => {
  const classes = useStyles();
  const [kind, setKind] = useState(props.selection.scope.kind);
  const [name, setName] = useState(nameOf(props.selection.scope));
  const [from, setFrom] = useState(dayInput(props.selection.from));
  const [to, setTo] = useState(dayInput(props.selection.to));
  const scope = scopeFrom(kind, name);
  const valid = scope !== undefined && from !== '' && to !== '' && from < to;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (scope && valid) props.onChange({ scope, from: dayValue(from), to: dayValue(to) });
  };

  return (
    <form className={classes.form} onSubmit={submit} data-testid="metrics-controls">
      <TextField
        select
        label="Scope"
        value={kind}
        onChange={e => setKind(e.target.value as MetricsScope['kind'])}
        inputProps={{ 'data-testid': 'metrics-scope-kind' }}
      >
        <MenuItem value="org">Organisation</MenuItem>
        <MenuItem value="team">Team</MenuItem>
        <MenuItem value="product">Product</MenuItem>
      </TextField>
      {kind !== 'org' && (
        <TextField
          label={kind === 'team' ? 'Team' : 'Product (team/product)'}
          value={name}
          onChange={e => setName(e.target.value)}
          inputProps={{ 'data-testid': 'metrics-scope-name' }}
        />
      )}
      <TextField
        label="From"
        type="date"
        value={from}
        onChange={e => setFrom(e.target.value)}
        InputLabelProps={{ shrink: true }}
        inputProps={{ 'data-testid': 'metrics-from' }}
      />
      <TextField
        label="To (exclusive)"
        type="date"
        value={to}
        onChange={e => setTo(e.target.value)}
        InputLabelProps={{ shrink: true }}
        inputProps={{ 'data-testid': 'metrics-to' }}
      />
      <Button type="submit" variant="contained" color="primary" disabled={!valid} data-testid="metrics-show">
        Show
      </Button>
    </form>
  );
};
