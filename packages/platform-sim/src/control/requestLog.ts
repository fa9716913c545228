import type { RequestHandler } from 'express';

export type UpstreamTarget = 'github' | 'argocd' | 'kubernetes';

/** One call a client made to a simulated service. */
export interface LoggedRequest {
  target: UpstreamTarget;
  method: string;
  /** Path below the service's mount point, without the query (e.g. /repos/refplat/platform/pulls). */
  path: string;
  /** Raw query string without '?', '' when none. */
  query: string;
  /** HTTP status sent; 0 when the connection was dropped (fault injection, ArgoCD down). */
  status: number;
  /** ISO time the request arrived. */
  at: string;
  durationMs: number;
}

const MAX_ENTRIES = 20000;

/** Remembers every upstream request so tests can count calls (e.g. "no ArgoCD fan-out"). */
export class RequestLog {
  private entries: LoggedRequest[] = [];

  list(): LoggedRequest[] {
    return [...this.entries];
  }

  clear(): void {
    this.entries = [];
  }

  private add(entry: LoggedRequest): void {
    this.entries.push(entry);
    if (this.entries.length > MAX_ENTRIES)
      this.entries.splice(0, this.entries.length - MAX_ENTRIES);
  }

  /** Middleware that records each request of one target once it has been answered (or dropped). */
  middleware(target: UpstreamTarget): RequestHandler {
    return (req, res, next) => {
      const started = Date.now();
      const [pathPart, ...rest] = req.url.split('?');
      let recorded = false;
      const record = (status: number) => {
        if (recorded) return;
        recorded = true;
        this.add({
          target,
          method: req.method,
          path: decodeURIComponentSafe(pathPart),
          query: rest.join('?'),
          status,
          at: new Date(started).toISOString(),
          durationMs: Date.now() - started,
        });
      };
      res.on('finish', () => record(res.statusCode));
      res.on('close', () => record(res.writableFinished ? res.statusCode : 0));
      next();
    };
  }
}

function decodeURIComponentSafe(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
