import type { Server } from 'http';

/**
 * GitHub, Argo CD and Sigstore keep an idle connection open for a minute or
 * more. Node's 5 s default races a client reusing one (undici reuses for 4 s,
 * make-fetch-happen's agent longer): on a busy machine a request then meets a
 * closed socket (ECONNRESET) that no real upstream would give it. The servers
 * close every connection themselves when they stop.
 */
export function keepIdleConnectionsLikeUpstreams(server: Server): void {
  server.keepAliveTimeout = 65_000;
}
