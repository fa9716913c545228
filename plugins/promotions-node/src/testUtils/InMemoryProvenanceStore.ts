import type { Provenance } from '@refplat/plugin-promotions-common';
import { ProvenanceStore } from '@refplat/plugin-promotions-node';

/**
 * An in-memory `ProvenanceStore`.
 *
 * @public
 */
export class InMemoryProvenanceStore implements ProvenanceStore {
  private readonly results = new Map<string, Provenance>();

  async get(digest: string, policy: string): Promise<Provenance | undefined> {
    return this.results.get(`${policy} ${digest}`);
  }

  async put(digest: string, policy: string, provenance: Provenance): Promise<void> {
    this.results.set(`${policy} ${digest}`, provenance);
  }

  async forget(digest: string, policy: string): Promise<void> {
    this.results.delete(`${policy} ${digest}`);
  }
}
