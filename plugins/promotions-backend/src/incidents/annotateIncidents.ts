import { IncidentPolicy, Ladder, OpenIncident, stageIncidentGate } from '@refplat/plugin-promotions-common';

/** Puts the Product's open incidents on the ladder, and on each stage what they ask of promotions into it. */
export function annotateIncidents(ladder: Ladder, policy: IncidentPolicy, open: OpenIncident[]): void {
  ladder.incidents = open;
  for (const stage of ladder.stages) stage.incidentGate = stageIncidentGate(policy, open, stage.name);
}
