import { InputError } from '@backstage/errors';
import { HopReading, Ladder, LadderCanary, LadderServiceCell, actorNameWithoutCatalog } from '@refplat/plugin-promotions-common';

/** A canary in a few words: "Paused at 25% (step 1/4, CanaryPauseStep)". */
function canaryText(canary: LadderCanary): string {
  if (canary.complete) return `complete (${canary.totalSteps} steps)`;
  const pause = canary.paused ? `, paused${canary.pauseReason ? `: ${canary.pauseReason}` : ''}` : '';
  return `${canary.phase} at ${canary.weight}% (step ${canary.currentStep}/${canary.totalSteps}${pause})`;
}

/** The ladder as a model reads it: per stage and service, digest, verdict, canary, hold. */
export function compactLadder(ladder: Ladder) {
  return {
    product: `${ladder.team}/${ladder.product}`,
    revision: ladder.revision,
    ...(ladder.healthError ? { healthError: ladder.healthError } : {}),
    stages: ladder.stages.map(stage => ({
      stage: stage.name,
      requiresApproval: stage.requiresApproval,
      verdict: stage.verdict,
      stuck: stage.stuck ?? false,
      services: Object.entries(stage.services).map(([service, cell]) => ({
        service,
        digest: cell.digest ?? null,
        verdict: cell.verdict,
        ...(cell.reasons.length ? { reasons: cell.reasons } : {}),
        ...(cell.canary ? { canary: canaryText(cell.canary) } : {}),
        ...(cell.waitingToClimb ? { waitingToClimb: true } : {}),
        ...(cell.incomingAge ? { belowAge: cell.incomingAge.age } : {}),
        ...(cell.incomingAge?.age === 'older' ? { belowAgeReason: cell.incomingAge.reason } : {}),
        ...(cell.hold ? { hold: `${cell.hold.reason} (by ${actorNameWithoutCatalog(cell.hold.placedBy)})` } : {}),
        ...(cell.diagnosis && cell.diagnosis.state !== 'ok' ? { diagnosis: cell.diagnosis.likelyCause } : {}),
      })),
    })),
    openPromotions: ladder.promotions.map(promotion => ({
      id: promotion.id,
      toStage: promotion.toStage,
      status: promotion.status,
      services: promotion.services,
      pullRequestUrl: promotion.pullRequest.url,
    })),
  };
}

/** "Hop admission (stalled, seen 2026-…): Kyverno policy … — look: kubectl -n … describe replicaset …". */
function hopLine(reading: HopReading): string {
  const seen = reading.seenAt ? `, seen ${reading.seenAt}` : '';
  const look = reading.lookAt ? ` — look: ${reading.lookAt.text}${reading.lookAt.href ? ` (${reading.lookAt.href})` : ''}` : '';
  return `Hop ${reading.hop} (${reading.mark}${seen}): ${reading.evidence}${look}`;
}

function cellExplanation(stage: string, service: string, cell: LadderServiceCell) {
  const { diagnosis, checklist = [] } = cell;
  const blocking = checklist.filter(item => !item.ok).map(item => item.detail);
  const lines = [
    `${service} in ${stage}: ${cell.verdict}${diagnosis ? ` (${diagnosis.state})` : ''}.`,
    ...(diagnosis
      ? [
          `Last completed step: ${diagnosis.lastCompletedStep}.`,
          `Likely cause: ${diagnosis.likelyCause}`,
          ...(diagnosis.whereToLook.length
            ? [`Where to look: ${diagnosis.whereToLook.map(l => (l.url ? `${l.label} (${l.url})` : l.label)).join('; ')}`]
            : []),
          ...(diagnosis.hops ?? []).filter(h => h.evidence).map(hopLine),
        ]
      : []),
    ...(blocking.length ? [`Promotion into ${stage} is blocked: ${blocking.join('; ')}`] : []),
  ];
  return {
    service,
    digest: cell.digest ?? null,
    verdict: cell.verdict,
    diagnosis: diagnosis ?? null,
    checklist,
    text: lines.join('\n'),
  };
}

/** The diagnosis and checklist of a stage's cells (or one), each with a plain-text summary. */
export function explainStage(ladder: Ladder, stageName: string, service?: string) {
  const stage = ladder.stages.find(candidate => candidate.name === stageName);
  if (!stage) {
    throw new InputError(`Unknown stage '${stageName}': the ladder is ${ladder.stages.map(s => s.name).join(' → ')}`);
  }
  const services = service ? [service] : Object.keys(stage.services);
  const cells = services.map(name => {
    const cell = stage.services[name];
    if (!cell) throw new InputError(`${name} is not a service of ${stageName}: it has ${Object.keys(stage.services).join(', ')}`);
    return cellExplanation(stageName, name, cell);
  });
  return {
    product: `${ladder.team}/${ladder.product}`,
    stage: stageName,
    verdict: stage.verdict,
    stuck: stage.stuck ?? false,
    ...(ladder.healthError ? { healthError: ladder.healthError } : {}),
    services: cells,
    text: cells.map(cell => cell.text).join('\n\n'),
  };
}
