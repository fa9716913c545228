/** One HTTP exchange the simulator answered, as the recorder keeps it. */
export interface Exchange {
  /** The test file (or capture) it was recorded in. */
  suite: string;
  method: string;
  /** As received, with the simulator's mount point: /github/…, /argocd/…, /k8s/… */
  path: string;
  /** The raw query string, without '?'. */
  query: string;
  reqHeaders: Record<string, string>;
  reqBody: string;
  /** 0 when the connection closed before the response finished. */
  status: number;
  resHeaders: Record<string, string>;
  resBody: string;
}

/** Who sent a request: only the product's traffic is judged. */
export type TrafficSource = 'product' | 'harness';

/** The verdict on one exchange. */
export interface ExchangeResult {
  api: 'github' | 'argocd' | 'kubernetes';
  exchange: Exchange;
  source: TrafficSource;
  /** The description's operation, e.g. `pulls/create`; undefined when no operation matches. */
  operationId?: string;
  /** The path template that matched. */
  template?: string;
  /** The simulator injected this answer (an outage, a 5xx page): its shape is not judged. */
  injected: boolean;
  requestProblems: string[];
  responseProblems: string[];
  notes: string[];
}

/** The request line of an exchange, for examples in reports. */
export function describeExchange(exchange: Exchange): string {
  return `${exchange.method} ${exchange.path}${exchange.query ? `?${exchange.query}` : ''} → ${exchange.status} (${exchange.suite})`;
}

/**
 * The JSON answer of an Argo CD or Kubernetes exchange, or the finished
 * result when there is none to judge: a dropped connection, a proxy-style
 * error page (the simulator's outage switch, not the API's own answer), or
 * a body that is not JSON.
 */
export function jsonAnswer(result: ExchangeResult): { body: Record<string, any> } | { finished: ExchangeResult } {
  const { exchange } = result;
  if (exchange.status === 0) return { finished: { ...result, notes: ['connection dropped'] } };
  const body = parseJson(exchange.resBody);
  if (body !== undefined) return { body: body as Record<string, any> };
  if (exchange.status >= 500) return { finished: { ...result, injected: true, notes: [`non-JSON ${exchange.status} (a proxy-style error page)`] } };
  return { finished: { ...result, responseProblems: [`response body is not JSON: ${exchange.resBody.slice(0, 100)}`] } };
}

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
