import { systemClock } from '@refplat/plugin-promotions-node';
import { PromotionGuards } from '../guards/PromotionGuards';
import { freezeGuard } from '../guards/freezeGuard';
import { incidentGuard } from '../guards/incidentGuard';
import { IncidentApprovals } from '../incidents/IncidentApprovals';
import { createProvenance } from '../provenance/createProvenance';
import { PartDeps } from './deps';
import { PeopleParts } from './peopleParts';
import { StoreParts } from './storeParts';

/** What may block a promotion: freezes, the supply chain, open incidents and the modules' guards. */
export function guardParts({ config, db, logger, addedGuards = [] }: PartDeps, stores: StoreParts, people: PeopleParts) {
  const { incidents, promotions: store } = stores;
  const incidentApprovals = config.incidents
    ? new IncidentApprovals({ policy: config.incidents, incidents, store, rights: people.approvalRights })
    : undefined;
  const provenance = createProvenance({
    config: config.provenance,
    images: config.images,
    db,
    clock: systemClock,
    // A cell a view answered "checking" for has its verdict: the open ladders refresh.
    onSettled: service => void people.broadcaster.productChanged(service, 'provenance-checked'),
  });
  const guards = new PromotionGuards(
    [
      ...(config.freezes.length ? [freezeGuard(config.freezes)] : []),
      ...(provenance ? [provenance.guard] : []),
      ...(config.incidents && incidentApprovals
        ? [incidentGuard({ policy: config.incidents, incidents, store, approvals: incidentApprovals, names: people.directory })]
        : []),
      ...addedGuards,
    ],
    logger,
  );
  return { guards, provenance, incidentApprovals };
}

export type GuardParts = ReturnType<typeof guardParts>;
