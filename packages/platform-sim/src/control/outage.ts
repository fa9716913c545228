import type { RequestHandler } from 'express';

export type OutageMode = '503' | 'reset';

/**
 * "ArgoCD is down": while on, every /argocd and /k8s call fails, either with
 * 503 or by dropping the connection (what a client sees when the server is gone).
 */
export class OutageSwitch {
  private down = false;
  private mode: OutageMode = '503';

  set(down: boolean, mode: OutageMode = '503'): void {
    this.down = down;
    this.mode = mode;
  }

  get state(): { down: boolean; mode: OutageMode } {
    return { down: this.down, mode: this.mode };
  }

  middleware(): RequestHandler {
    return (req, res, next) => {
      if (!this.down) return next();
      if (this.mode === 'reset') {
        req.socket.destroy();
        return undefined;
      }
      res
        .status(503)
        .type('text/plain')
        .send(
          'upstream connect error or disconnect/reset before headers. reset reason: connection failure',
        );
      return undefined;
    };
  }
}
