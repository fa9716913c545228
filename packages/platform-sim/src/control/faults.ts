import type { Request, RequestHandler, Response } from 'express';
import type { UpstreamTarget } from './requestLog';

export type FaultKind =
  | 'status'
  | 'secondary-rate-limit'
  | 'primary-rate-limit'
  | 'reset'
  /** The call is held and never handled or answered (a stalled upstream). */
  | 'stall'
  /** The call is handled (its change happens) but never answered. */
  | 'stall-response';

/** What POST /_sim/faults accepts. */
export interface FaultSpec {
  target: UpstreamTarget;
  /** Only this HTTP method (any when absent). */
  method?: string;
  /** Substring of the path below the mount point, or a regular expression source (any when absent). */
  path?: string;
  /** How many matching calls fail (default 1). */
  count?: number;
  /** HTTP status to answer with (e.g. 500, 502, 503). */
  status?: number;
  /**
   * A GitHub rate-limit answer, 'reset' to drop the connection, or a stall:
   * 'stall' holds the call unhandled, 'stall-response' handles it and holds
   * the answer, until the client goes away (e.g. a process killed while
   * waiting on exactly that call).
   */
  kind?: Exclude<FaultKind, 'status'>;
  /** Delay before answering (alone: a slow but successful call). */
  latencyMs?: number;
  /** Error message in the body. */
  message?: string;
}

export interface ActiveFault extends Required<
  Pick<FaultSpec, 'target' | 'count'>
> {
  id: number;
  spec: FaultSpec;
  remaining: number;
}

/** Answers a fault with the target's own error shape. */
export type FaultResponder = (
  req: Request,
  res: Response,
  fault: FaultSpec,
) => void;

/** Queued failures for upstream calls; each matching call consumes one. */
export class FaultInjector {
  private faults: ActiveFault[] = [];
  private nextId = 1;

  add(spec: FaultSpec): ActiveFault {
    if (!['github', 'argocd', 'kubernetes'].includes(spec.target)) {
      throw new Error(
        `fault target must be github, argocd or kubernetes, got ${spec.target}`,
      );
    }
    if (
      spec.status === undefined &&
      spec.kind === undefined &&
      spec.latencyMs === undefined
    ) {
      throw new Error('a fault needs a status, a kind or a latencyMs');
    }
    const count = spec.count ?? 1;
    const fault: ActiveFault = {
      id: this.nextId++,
      target: spec.target,
      count,
      remaining: count,
      spec,
    };
    this.faults.push(fault);
    return fault;
  }

  clear(): void {
    this.faults = [];
  }

  list(): ActiveFault[] {
    return this.faults.map(fault => ({ ...fault }));
  }

  /** Takes one use of the first fault matching this call, if any. */
  take(
    target: UpstreamTarget,
    method: string,
    path: string,
  ): FaultSpec | undefined {
    const fault = this.faults.find(
      f =>
        f.target === target && f.remaining > 0 && matches(f.spec, method, path),
    );
    if (!fault) return undefined;
    fault.remaining -= 1;
    if (fault.remaining === 0)
      this.faults = this.faults.filter(f => f !== fault);
    return fault.spec;
  }

  middleware(target: UpstreamTarget, respond: FaultResponder): RequestHandler {
    return (req, res, next) => {
      // Match on the decoded path: octokit sends refs like heads%2Fmain.
      const fault = this.take(target, req.method, safeDecode(req.path));
      if (!fault) return next();
      const act = () => {
        if (fault.kind === 'reset') {
          req.socket.destroy();
        } else if (fault.kind === 'stall') {
          // never answered
        } else if (fault.kind === 'stall-response') {
          withholdResponse(res);
          next();
        } else if (fault.status !== undefined || fault.kind !== undefined) {
          respond(req, res, fault);
        } else {
          next();
        }
      };
      if (fault.latencyMs) setTimeout(act, fault.latencyMs);
      else act();
      return undefined;
    };
  }
}

/** Lets the handler run to the end but sends nothing of its answer. */
function withholdResponse(res: Response): void {
  res.writeHead = (() => res) as unknown as Response['writeHead'];
  res.write = (() => true) as Response['write'];
  res.end = (() => res) as unknown as Response['end'];
}

function matches(spec: FaultSpec, method: string, path: string): boolean {
  if (spec.method && spec.method.toUpperCase() !== method.toUpperCase())
    return false;
  if (!spec.path) return true;
  if (path.includes(spec.path)) return true;
  try {
    return new RegExp(spec.path).test(path);
  } catch {
    return false;
  }
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
