import type { OpenIncident, ProductRef } from '@refplat/plugin-promotions-common';

/**
 * The Products' incidents. Each change happens once however often a report
 * is delivered: `open` and `resolve` say whether they changed anything.
 *
 * @public
 */
export interface IncidentStore {
  /** The Product's open incidents, oldest first. */
  listOpen(product: ProductRef): Promise<OpenIncident[]>;
  /** True when the incident was not open before (new, or resolved and open again); an open one only takes the new link. */
  open(product: ProductRef, id: string, url: string, at: Date): Promise<boolean>;
  /** True when the incident was open. */
  resolve(product: ProductRef, id: string, at: Date): Promise<boolean>;
}
