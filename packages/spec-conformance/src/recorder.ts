import http from 'node:http';
import { Exchange } from './exchange';

/** Where the platform simulator mounts GitHub, Argo CD and the Kubernetes API. */
const SIMULATOR_PREFIXES = ['/github/', '/argocd/', '/k8s/'];
const MAX_BODY = 4 * 1024 * 1024;
const REQUEST_HEADERS = ['accept', 'if-none-match', 'if-modified-since', 'content-type', 'user-agent', 'x-github-api-version'];
const RESPONSE_HEADERS = ['content-type', 'etag', 'link', 'location', 'retry-after', 'x-ratelimit-remaining', 'x-ratelimit-limit', 'x-ratelimit-reset', 'x-ratelimit-used', 'x-ratelimit-resource', 'x-github-request-id', 'x-github-media-type'];

export interface Recording {
  readonly exchanges: Exchange[];
  /** Stops recording and puts http.Server back as it was. */
  stop(): void;
}

function pick(headers: http.IncomingHttpHeaders | http.OutgoingHttpHeaders, names: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of names) if (headers[name] !== undefined) out[name] = String(headers[name]);
  return out;
}

function toBuffer(chunk: unknown, encoding?: unknown): Buffer | undefined {
  if (chunk === undefined || chunk === null || typeof chunk === 'function') return undefined;
  if (Buffer.isBuffer(chunk)) return chunk;
  if (chunk instanceof Uint8Array) return Buffer.from(chunk);
  return Buffer.from(String(chunk), typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
}

/** Collects chunks up to MAX_BODY. */
class BodyTap {
  private readonly chunks: Buffer[] = [];
  private length = 0;

  add(chunk: unknown, encoding?: unknown): void {
    const buffer = toBuffer(chunk, encoding);
    if (!buffer || this.length >= MAX_BODY) return;
    this.chunks.push(buffer);
    this.length += buffer.length;
  }

  text(): string {
    return Buffer.concat(this.chunks).toString('utf8');
  }
}

/** Observes one exchange without changing it: request data is teed, response chunks copied. */
function observe(suite: string, req: http.IncomingMessage, res: http.ServerResponse, sink: (exchange: Exchange) => void): void {
  // Express rewrites req.url below its mount points; keep the URL as received.
  const url = req.url ?? '';
  const requestBody = new BodyTap();
  const responseBody = new BodyTap();
  const emit = req.emit;
  req.emit = function tee(this: http.IncomingMessage, event: string | symbol, ...args: any[]) {
    if (event === 'data') requestBody.add(args[0]);
    return emit.call(this, event, ...args);
  } as typeof req.emit;
  const write = res.write;
  const end = res.end;
  res.write = function copy(this: http.ServerResponse, chunk: unknown, ...rest: any[]) {
    responseBody.add(chunk, rest[0]);
    return (write as Function).call(this, chunk, ...rest);
  } as typeof res.write;
  res.end = function copyLast(this: http.ServerResponse, chunk?: unknown, ...rest: any[]) {
    responseBody.add(chunk, rest[0]);
    return (end as Function).call(this, chunk, ...rest);
  } as typeof res.end;
  let recorded = false;
  const record = (dropped: boolean) => {
    if (recorded) return;
    recorded = true;
    const [path, ...query] = url.split('?');
    sink({
      suite,
      method: req.method ?? 'GET',
      path,
      query: query.join('?'),
      reqHeaders: pick(req.headers, REQUEST_HEADERS),
      reqBody: requestBody.text(),
      status: dropped ? 0 : res.statusCode,
      // Express sets headers one by one (setHeader), so getHeaders() has them all.
      resHeaders: pick(res.getHeaders(), RESPONSE_HEADERS),
      resBody: responseBody.text(),
    });
  };
  res.on('finish', () => record(false));
  res.on('close', () => record(!res.writableFinished));
}

/**
 * Records every exchange that an http.Server in this process answers under
 * the simulator's mount points, until `stop()`. One recording at a time:
 * jest runs the test files of a worker one after another, and each stops
 * its recording before the next starts.
 */
export function startRecording(suite: string): Recording {
  const exchanges: Exchange[] = [];
  const prototype = http.Server.prototype;
  const ownEmit = Object.prototype.hasOwnProperty.call(prototype, 'emit');
  const originalEmit = prototype.emit;
  prototype.emit = function recordingEmit(this: http.Server, event: string | symbol, ...args: any[]) {
    const [req, res] = args as [http.IncomingMessage, http.ServerResponse];
    if (event === 'request' && SIMULATOR_PREFIXES.some(prefix => req.url?.startsWith(prefix))) {
      observe(suite, req, res, exchange => exchanges.push(exchange));
    }
    return originalEmit.apply(this, [event, ...args] as Parameters<typeof originalEmit>);
  } as typeof prototype.emit;
  return {
    exchanges,
    stop() {
      if (ownEmit) prototype.emit = originalEmit;
      else delete (prototype as Partial<typeof prototype>).emit;
    },
  };
}
