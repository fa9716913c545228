import { Knex } from 'knex';
import type { Provenance } from '@refplat/plugin-promotions-common';
import type { ProvenanceStore } from '@refplat/plugin-promotions-node';

type Row = { digest: string; policy: string; provenance: string; verified_at: string };

/** Verified provenance by (digest, policy), shared by the replicas. */
export class DatabaseProvenanceStore implements ProvenanceStore {
  constructor(private readonly db: Knex) {}

  async get(digest: string, policy: string): Promise<Provenance | undefined> {
    const row = await this.db<Row>('provenance_results').where({ digest, policy }).first();
    return row ? (JSON.parse(row.provenance) as Provenance) : undefined;
  }

  /** The newest result stands: a look again before a merge replaces the first. */
  async put(digest: string, policy: string, provenance: Provenance, at: Date): Promise<void> {
    await this.db<Row>('provenance_results')
      .insert({ digest, policy, provenance: JSON.stringify(provenance), verified_at: at.toISOString() })
      .onConflict(['digest', 'policy'])
      .merge(['provenance', 'verified_at']);
  }

  async forget(digest: string, policy: string): Promise<void> {
    await this.db<Row>('provenance_results').where({ digest, policy }).delete();
  }
}
