/** An incident as the simulated incident tool keeps it. */
export interface SimIncident {
  id: string;
  /** The Product, `team/product`. */
  product: string;
  state: 'open' | 'resolved';
  /** The incident's page in the simulator. */
  url: string;
  openedAt: string;
  resolvedAt?: string;
}

/** What became of reporting a change to the incident receiver. */
export interface IncidentDelivery {
  url: string;
  /** HTTP status of the receiver's answer; 0 when it could not be reached. */
  status: number;
  error?: string;
}

/**
 * A stand-in for an incident tool (PagerDuty, incident.io): Products' incidents
 * open and resolve here, each with a page, and every change is reported as the
 * promotions plugin takes incidents, `{product, id, state, url}` POSTed as JSON
 * (to the events backend's HTTP ingress for the topic `promotions.incidents`).
 * A Product has at most one open incident: opening it again answers that one.
 */
export class IncidentDesk {
  private readonly incidents: SimIncident[] = [];

  constructor(
    private readonly pageUrl: (id: string) => string,
    private receiverUrl?: string,
  ) {}

  /** Sets (or with undefined removes) where changes are reported. */
  deliverTo(url: string | undefined): void {
    this.receiverUrl = url;
  }

  get(id: string): SimIncident | undefined {
    return this.incidents.find(incident => incident.id === id);
  }

  /** Opens an incident for the Product (or finds the open one) and reports it. */
  async open(product: string, now = new Date()) {
    let incident = this.openOf(product);
    if (!incident) {
      const id = `INC-${this.incidents.length + 1}`;
      incident = { id, product, state: 'open', url: this.pageUrl(id), openedAt: now.toISOString() };
      this.incidents.push(incident);
    }
    return { incident: { ...incident }, delivery: await this.report(incident) };
  }

  /** Resolves the Product's open incident and reports it; undefined when none is open. */
  async resolve(product: string, now = new Date()) {
    const incident = this.openOf(product);
    if (!incident) return undefined;
    incident.state = 'resolved';
    incident.resolvedAt = now.toISOString();
    return { incident: { ...incident }, delivery: await this.report(incident) };
  }

  private openOf(product: string): SimIncident | undefined {
    return this.incidents.find(incident => incident.product === product && incident.state === 'open');
  }

  private async report(incident: SimIncident): Promise<IncidentDelivery | undefined> {
    const url = this.receiverUrl;
    if (!url) return undefined;
    const { product, id, state } = incident;
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ product, id, state, url: incident.url }),
      });
      return response.ok
        ? { url, status: response.status }
        : { url, status: response.status, error: (await response.text()).slice(0, 500) };
    } catch (error) {
      return { url, status: 0, error: error instanceof Error ? error.message : String(error) };
    }
  }
}
