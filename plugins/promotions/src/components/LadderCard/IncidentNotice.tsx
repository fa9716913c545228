import { Link } from '@material-ui/core';
import ReportProblemIcon from '@material-ui/icons/ReportProblem';
import { StageIncidentGate, actorNameWithoutCatalog } from '@refplat/plugin-promotions-common';
import { StageNotice } from './StageNotice';

/** What the open incidents ask of promotions into the stage, as people read it. */
export function incidentConsequence(stage: string, gate: StageIncidentGate): string {
  if (gate.mode === 'block') return `promotions into ${stage} are blocked until resolved`;
  const commanders = gate.commanders.map(actorNameWithoutCatalog).join(', ');
  return `promotions into ${stage} also need an incident commander's approval (${commanders})`;
}

/**
 * "Incident INC-7 open: promotions into prod are blocked until resolved", each
 * incident linked to its page, so a 409 or a waiting approval surprises nobody.
 */
export const IncidentNotice = (props: { stage: string; gate: StageIncidentGate }) => {
  const { gate } = props;
  return (
    <StageNotice tone="error" icon={ReportProblemIcon} testId={`incident-${props.stage}`}>
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
    </StageNotice>
  );
};
