import { fulcioHandler, initializeCA, initializeTLog, rekorHandler } from '@sigstore/mock';
import { keepIdleConnectionsLikeUpstreams } from '../http/keepAlive';
import crypto from 'crypto';
import http from 'http';
import net from 'net';
import { createCtLog } from './ctLog';

type Handler = ReturnType<typeof fulcioHandler>;

/** The keys and logs of one local Sigstore, as its trusted root must name them. */
export interface SigstoreServer {
  /** `http://127.0.0.1:<port>`: Fulcio's and Rekor's base URL. */
  url: string;
  /** The CA's self-signed root, DER. */
  caRoot: Buffer;
  /** The CT log's public key (DER SPKI) and log id. */
  ctLog: { publicKey: Buffer; logId: Buffer };
  /** The transparency log's public key (DER SPKI). */
  tlogPublicKey: Buffer;
  stop(): Promise<void>;
}

const newKeyPair = () => crypto.generateKeyPairSync('ec', { namedCurve: 'prime256v1' });

const sha256Hex = (bytes: Buffer | string) => crypto.createHash('sha256').update(bytes).digest('hex');

/**
 * Rekor stores a `dsse` entry not as proposed (the envelope and its
 * verifiers) but canonicalised: the envelope's and payload's hashes and each
 * signature with its verifier. Verifiers compare the bundle against that body,
 * and @sigstore/mock's log stores what it is handed, so this does Rekor's part.
 */
function canonicalDsseEntry(proposed: string): string {
  const entry = JSON.parse(proposed);
  if (entry.kind !== 'dsse') return proposed;
  const { envelope, verifiers } = entry.spec.proposedContent as { envelope: string; verifiers: string[] };
  const parsed = JSON.parse(envelope) as { payload: string; signatures: Array<{ sig: string }> };
  return JSON.stringify({
    apiVersion: entry.apiVersion,
    kind: 'dsse',
    spec: {
      envelopeHash: { algorithm: 'sha256', value: sha256Hex(envelope) },
      payloadHash: { algorithm: 'sha256', value: sha256Hex(Buffer.from(parsed.payload, 'base64')) },
      signatures: parsed.signatures.map((signature, index) => ({ signature: signature.sig, verifier: verifiers[index] ?? verifiers[0] })),
    },
  });
}

async function listen(server: http.Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port));
  });
}

/**
 * @sigstore/mock's Fulcio (a CA, with our CT log) and Rekor (a transparency log)
 * served over HTTP on a free local port, each with its own fresh key, so that
 * @sigstore/sign's FulcioSigner and RekorWitness talk to them as to the real
 * services.
 */
export async function startSigstoreServer(): Promise<SigstoreServer> {
  const ctLog = createCtLog(newKeyPair());
  const ca = await initializeCA(newKeyPair(), ctLog);
  const routes = new Map<string, Handler>();
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', chunk => chunks.push(chunk));
    request.on('end', async () => {
      const handler = request.method === 'POST' ? routes.get(request.url ?? '') : undefined;
      if (!handler) {
        response.writeHead(404).end();
        return;
      }
      try {
        const result = await handler.fn(Buffer.concat(chunks).toString('utf8'));
        response.writeHead(result.statusCode, { 'content-type': result.contentType ?? 'text/plain' }).end(result.response);
      } catch (error) {
        response.writeHead(400, { 'content-type': 'text/plain' }).end(String(error));
      }
    });
  });
  keepIdleConnectionsLikeUpstreams(server);
  const url = `http://127.0.0.1:${await listen(server)}`;
  const tlogKeys = newKeyPair();
  // The log signs its checkpoints with its host, which verifiers match against its base URL.
  const tlog = await initializeTLog(url, tlogKeys);
  const fulcio = fulcioHandler(ca);
  const rekor = rekorHandler(tlog);
  routes.set(fulcio.path, fulcio);
  routes.set(rekor.path, { path: rekor.path, fn: body => rekor.fn(canonicalDsseEntry(body)) });
  return {
    url,
    caRoot: ca.rootCertificate,
    ctLog: { publicKey: ctLog.publicKey, logId: ctLog.logID },
    tlogPublicKey: tlogKeys.publicKey.export({ format: 'der', type: 'spki' }),
    stop: () =>
      new Promise<void>(resolve => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
