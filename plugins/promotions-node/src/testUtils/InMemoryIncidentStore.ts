import type { OpenIncident, ProductRef } from '@refplat/plugin-promotions-common';
import { IncidentStore } from '@refplat/plugin-promotions-node';

/**
 * An in-memory `IncidentStore`.
 *
 * @public
 */
export class InMemoryIncidentStore implements IncidentStore {
  /** `team/product/id` → the incident and whether it is open. */
  private readonly incidents = new Map<string, OpenIncident & { product: string; open: boolean }>();

  async listOpen(product: ProductRef): Promise<OpenIncident[]> {
    const name = `${product.team}/${product.product}`;
    return [...this.incidents.values()]
      .filter(incident => incident.open && incident.product === name)
      .sort((a, b) => a.openedAt.localeCompare(b.openedAt))
      .map(({ id, url, openedAt }) => ({ id, url, openedAt }));
  }

  async open(product: ProductRef, id: string, url: string, at: Date): Promise<boolean> {
    const name = `${product.team}/${product.product}`;
    const key = `${name}/${id}`;
    const known = this.incidents.get(key);
    if (known?.open) {
      known.url = url;
      return false;
    }
    this.incidents.set(key, { id, url, openedAt: at.toISOString(), product: name, open: true });
    return true;
  }

  async resolve(product: ProductRef, id: string, _at: Date): Promise<boolean> {
    const known = this.incidents.get(`${product.team}/${product.product}/${id}`);
    if (!known?.open) return false;
    known.open = false;
    return true;
  }
}
