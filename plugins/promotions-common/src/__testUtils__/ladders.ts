import type { Ladder, LadderServiceCell, LadderStage } from '../ladder/types';

/** A digest made of one repeated hex character, e.g. `d('a')`. */
export const d = (c: string) => `sha256:${c.repeat(64)}`;

/** One service's cell: its digest and health; healthy unless told. */
export type CellSpec = {
  digest?: string;
  verdict?: LadderServiceCell['verdict'];
  /** Defaults to none when healthy, else `{service} is {verdict}`. */
  reasons?: string[];
  /** How the digest of the stage below compares with this one (set by the ladder's builder). */
  incomingAge?: LadderServiceCell['incomingAge'];
};

/**
 * A healthy stage with the given cells. The Environment declares every cell's
 * service unless `declared` says otherwise; only `prod` needs approval unless
 * `requiresApproval` says otherwise.
 */
export function stage(
  name: string,
  cells: Record<string, CellSpec>,
  options: { declared?: string[]; requiresApproval?: boolean } = {},
): LadderStage {
  const declared = options.declared ?? Object.keys(cells);
  return {
    name,
    requiresApproval: options.requiresApproval ?? name === 'prod',
    healthy: true,
    verdict: 'healthy',
    reasons: [],
    release: { path: `${name}.yaml` },
    environment: { path: `env/${name}.yaml`, declaredServices: declared },
    services: Object.fromEntries(
      Object.entries(cells).map(([service, spec]) => {
        const verdict = spec.verdict ?? 'healthy';
        return [
          service,
          {
            digest: spec.digest,
            declared: declared.includes(service),
            healthy: verdict === 'healthy',
            verdict,
            reasons: spec.reasons ?? (verdict === 'healthy' ? [] : [`${service} is ${verdict}`]),
            runningDigests: [],
            waitingToClimb: false,
            ...(spec.incomingAge ? { incomingAge: spec.incomingAge } : {}),
          },
        ];
      }),
    ),
  };
}

/** alpha/shop with these stages, bottom first; its services are all the stages name. */
export function ladder(...stages: LadderStage[]): Ladder {
  const services = [...new Set(stages.flatMap(s => Object.keys(s.services)))];
  return {
    team: 'alpha',
    product: 'shop',
    services,
    stages,
    promotions: [],
    revision: 'head',
    generatedAt: '',
  };
}
