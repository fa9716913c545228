import { Link, Typography, makeStyles } from '@material-ui/core';
import ReportProblemIcon from '@material-ui/icons/ReportProblem';
import { StageIncidentGate } from '@refplat/plugin-promotions-common';
import { refName } from '../../access/productChangeAccess';

const useStyles = makeStyles(theme => ({
  root: {
    display: 'flex',
    alignItems: 'flex-start',
    gap: theme.spacing(0.5),
    margin: theme.spacing(0.5, 0),
    padding: theme.spacing(0.5, 1),
    borderRadius: theme.shape.borderRadius,
    border: `1px solid ${theme.palette.error.main}`,
    color: theme.palette.text.primary,
  },
  icon: { marginTop: 2, color: theme.palette.error.main },
}));

/** What the open incidents ask of promotions into the stage, as people read it. */
export function incidentConsequence(stage: string, gate: StageIncidentGate): string {
  if (gate.mode === 'block') return `promotions into ${stage} are blocked until resolved`;
  const commanders = gate.commanders.map(refName).join(', ');
  return `promotions into ${stage} also need an incident commander's approval (${commanders})`;
}

/**
 * "Incident INC-7 open: promotions into prod are blocked until resolved", each
 * incident linked to its page, so a 409 or a waiting approval surprises nobody.
 */
export const IncidentNotice = (props: { stage: string; gate: StageIncidentGate }) => {
  const classes = useStyles();
  const { gate } = props;
  return (
    <Typography variant="caption" component="div" className={classes.root} data-testid={`incident-${props.stage}`}>
      <ReportProblemIcon fontSize="inherit" className={classes.icon} />
      <span>
        {gate.incidents.length === 1 ? 'Incident ' : 'Incidents '}
        {gate.incidents.map((incident, index) => (
          <span key={incident.id}>
            {index > 0 && ', '}
            <Link href={incident.url} target="_blank" rel="noopener noreferrer">
              <strong>{incident.id}</strong>
            </Link>
          </span>
        ))}{' '}
        open: {incidentConsequence(props.stage, gate)}
      </span>
    </Typography>
  );
};
