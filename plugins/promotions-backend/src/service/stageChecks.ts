import type { ProductRecords } from '../ladder/readProductRecords';

const ladderText = (stages: string[]) => stages.join(' → ');

/** Why two stages cannot be compared, or undefined: both on the ladder, `from` below `to`. */
export function comparisonProblem(stages: string[], from: string, to: string): string | undefined {
  for (const stage of [from, to]) {
    if (!stages.includes(stage)) return `Unknown stage '${stage}': the ladder is ${ladderText(stages)}`;
  }
  if (stages.indexOf(from) >= stages.indexOf(to)) {
    return `Compare a lower stage with a higher one: ${from} is not below ${to} on ${ladderText(stages)}`;
  }
  return undefined;
}

/**
 * Why a hold cannot be placed on a service at a stage, or undefined when the
 * ladder has that cell: the stage is configured, and its Environment
 * declares the service or its Release names it.
 */
export function holdTargetProblem(
  records: ProductRecords,
  stage: string,
  service: string,
): string | undefined {
  const target = records.stages.find(candidate => candidate.name === stage);
  if (!target) {
    return `Unknown stage '${stage}': the ladder is ${ladderText(records.stages.map(s => s.name))}`;
  }
  const declared = target.environment.services.includes(service);
  const released = target.release.services[service] !== undefined;
  if (!declared && !released) {
    return `${service} is not a service of ${stage}: its Environment does not declare it and its Release does not name it`;
  }
  return undefined;
}
