import { Ladder } from '@refplat/plugin-promotions-common';
import { ProvenanceService } from './ProvenanceService';

/**
 * Puts on each Service cell with a digest where that digest came from:
 * verified results cost no registry request, and a view does not wait on the
 * registry (a cell still being checked says so, and is pushed again).
 */
export async function annotateProvenance(ladder: Ladder, provenance: ProvenanceService): Promise<void> {
  await Promise.all(
    ladder.stages.flatMap(stage =>
      Object.entries(stage.services).map(async ([service, cell]) => {
        if (!cell.digest) return;
        cell.provenance = await provenance.provenanceForView({ team: ladder.team, product: ladder.product, service }, cell.digest);
      }),
    ),
  );
}
