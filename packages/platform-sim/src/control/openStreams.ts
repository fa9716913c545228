import type { Request, Response } from 'express';
import type { UpstreamTarget } from './requestLog';

interface OpenStream {
  target: UpstreamTarget;
  res: Response;
}

/**
 * The long-lived responses the simulator is sending (Argo CD's application
 * stream, Kubernetes watches), so tests can count them and drop them as a
 * restarting server or a proxy's idle timeout would.
 */
export class OpenStreams {
  private readonly streams = new Set<OpenStream>();

  /**
   * Starts a newline-delimited JSON response kept open until the client goes
   * or `drop`; `stop` runs then (unsubscribe). Returns the line writer.
   */
  open(
    target: UpstreamTarget,
    req: Request,
    res: Response,
    contentType: string,
  ): { write(line: unknown): void; onClose(stop: () => void): void } {
    res.status(200).type(contentType);
    res.flushHeaders();
    const stream = { target, res };
    this.streams.add(stream);
    const stops: Array<() => void> = [];
    req.on('close', () => {
      this.streams.delete(stream);
      for (const stop of stops) stop();
    });
    return {
      write: line => {
        if (!res.writableEnded) res.write(`${JSON.stringify(line)}\n`);
      },
      onClose: stop => stops.push(stop),
    };
  }

  count(target: UpstreamTarget): number {
    return [...this.streams].filter(stream => stream.target === target).length;
  }

  /** Ends every open stream (of one target), as the server going away does; returns how many. */
  drop(target?: UpstreamTarget): number {
    const dropped = [...this.streams].filter(s => !target || s.target === target);
    for (const stream of dropped) {
      this.streams.delete(stream);
      stream.res.socket?.destroy();
    }
    return dropped.length;
  }
}
