import crypto from 'crypto';
import pLimit from 'p-limit';
import { readBodyWithin } from '../service/readBodyWithin';

const OCI_MANIFEST = 'application/vnd.oci.image.manifest.v1+json';
const OCI_INDEX = 'application/vnd.oci.image.index.v1+json';
const DOCKER_MANIFEST = 'application/vnd.docker.distribution.manifest.v2+json';
const MANIFEST_TYPES = [OCI_MANIFEST, OCI_INDEX, DOCKER_MANIFEST, 'application/vnd.docker.distribution.manifest.list.v2+json'];

/** An OCI content descriptor. */
export interface Descriptor {
  mediaType: string;
  digest: string;
  size: number;
  artifactType?: string;
}

/** A manifest as far as provenance reads it. */
export interface OciManifest {
  mediaType?: string;
  artifactType?: string;
  config?: Descriptor;
  layers?: Descriptor[];
  manifests?: Descriptor[];
}

/** A cosign tag (`sha256-<hex>.sig` or `.att`) and the manifest it names. */
export interface CosignTag {
  suffix: 'sig' | 'att';
  digest: string;
  manifest: OciManifest;
}

/** The registry could not be asked, or answered what a registry should not: the state is `unknown`. */
export class RegistryUnavailableError extends Error {}

export interface OciRegistryOptions {
  /** e.g. `https://registry.refplat.org`. */
  baseUrl: string;
  credentials?: { username: string; password: string };
  /** Each request's limit; a registry that hangs is unavailable, not waited for. */
  timeoutMs?: number;
  /** Requests in flight at once, over every caller. */
  concurrency?: number;
  /** Referrers read per digest at most: a list of 10,000 is cut, not read. */
  maxReferrers?: number;
  /** Bytes of a manifest or blob read at most. */
  maxBytes?: number;
  /** How long a 429 or 503's `Retry-After` is honoured, in all, before giving up. */
  maxRetryWaitMs?: number;
  /**
   * Hosts besides the registry's own that may serve its tokens (a Bearer
   * challenge's realm) or what it redirects to (blob storage): nothing else
   * is asked, so no credential or request leaves for a host nobody named.
   */
  allowedHosts?: string[];
  sleep?: (ms: number) => Promise<void>;
}

const DIGEST = /^sha256:[0-9a-f]{64}$/;
const REDIRECTS = [301, 302, 303, 307, 308];
const MAX_REDIRECTS = 3;

/**
 * The OCI distribution API, read-only: whether a manifest exists, the
 * referrers of a digest (the OCI 1.1 referrers API, else the referrers tag
 * `sha256-<hex>`), cosign's `.sig` and `.att` tags, manifests and blobs,
 * each checked against its digest. Bounded in concurrency, size and count;
 * honours `Retry-After`; speaks Basic and the Bearer token challenge.
 */
export class OciRegistry {
  private readonly limit: ReturnType<typeof pLimit>;
  private readonly options: Required<Omit<OciRegistryOptions, 'credentials'>> & Pick<OciRegistryOptions, 'credentials'>;
  private readonly registryHost: string;
  private bearer = new Map<string, string>();
  /**
   * Whether the registry has the referrers API, once one call asked it (see
   * referrers): shared by the calls in flight meanwhile, so that a start
   * reading many digests at once probes once, not once per digest.
   */
  private referrersApiProbe?: Promise<boolean | undefined>;

  constructor(options: OciRegistryOptions) {
    this.options = {
      timeoutMs: 10_000,
      concurrency: 4,
      maxReferrers: 64,
      maxBytes: 4 * 1024 * 1024,
      maxRetryWaitMs: 30_000,
      allowedHosts: [],
      sleep: ms => new Promise(resolve => setTimeout(resolve, ms)),
      ...options,
      baseUrl: options.baseUrl.replace(/\/+$/, ''),
    };
    this.registryHost = new URL(this.options.baseUrl).host;
    this.limit = pLimit(this.options.concurrency);
  }

  /** `HEAD /v2/<name>/manifests/<digest>`: whether the digest reached the registry. */
  async hasManifest(name: string, digest: string): Promise<boolean> {
    const response = await this.request(name, `manifests/${digest}`, 'HEAD', MANIFEST_TYPES);
    if (response.status === 404) return false;
    if (response.ok) return true;
    throw this.unexpected(response, `HEAD the manifest of ${name}@${digest}`);
  }

  /** A manifest by digest or tag; undefined when there is none. */
  async manifest(name: string, reference: string): Promise<{ digest: string; manifest: OciManifest } | undefined> {
    const response = await this.request(name, `manifests/${reference}`, 'GET', MANIFEST_TYPES);
    if (response.status === 404) return undefined;
    if (!response.ok) throw this.unexpected(response, `GET the manifest ${name}:${reference}`);
    const bytes = await this.body(response);
    const digest = sha256(bytes);
    if (DIGEST.test(reference) && digest !== reference) {
      throw new RegistryUnavailableError(`the manifest ${name}@${reference} has the content of ${digest}`);
    }
    return { digest, manifest: manifestOf(parseJson(bytes, `the manifest ${name}:${reference}`), `the manifest ${name}:${reference}`) };
  }

  /** A blob, checked against its digest. */
  async blob(name: string, digest: string): Promise<Buffer> {
    if (!DIGEST.test(digest)) throw new RegistryUnavailableError(`not a sha256 digest: ${digest.slice(0, 80)}`);
    const response = await this.request(name, `blobs/${digest}`, 'GET', ['*/*']);
    if (!response.ok) throw this.unexpected(response, `GET the blob ${name}@${digest}`);
    const bytes = await this.body(response);
    if (sha256(bytes) !== digest) throw new RegistryUnavailableError(`the blob ${name}@${digest} does not match its digest`);
    return bytes;
  }

  /**
   * What refers to a digest: the referrers API where the registry has it,
   * else the referrers tag's index. Only those of `artifactType` when given;
   * at most `maxReferrers`.
   *
   * A registry with the API never answers it 404 for a repository that
   * exists (OCI distribution 1.1), so after a 404 or 405 this instance takes
   * the registry for one without it (Distribution 2.8) and reads the
   * referrers tag straight away: one request per digest instead of two.
   */
  async referrers(name: string, digest: string, artifactType?: string): Promise<Descriptor[]> {
    const found = await this.referrersOf(name, digest, artifactType);
    const wanted = artifactType ? found.filter(descriptor => descriptor.artifactType === artifactType) : found;
    return wanted.slice(0, this.options.maxReferrers);
  }

  /** The first call probes the referrers API; the others wait for its answer, then ask the API or the tag. */
  private async referrersOf(name: string, digest: string, artifactType?: string): Promise<Descriptor[]> {
    const probed = this.referrersApiProbe;
    if (probed) {
      const hasApi = await probed;
      if (hasApi === false) return this.referrersTag(name, digest);
      if (hasApi === true) return (await this.referrersApi(name, digest, artifactType)).found;
      // The probe failed (the registry was unavailable): this call asks again.
      if (this.referrersApiProbe === probed) this.referrersApiProbe = undefined;
      return this.referrersOf(name, digest, artifactType);
    }
    const asked = this.referrersApi(name, digest, artifactType);
    // Undefined where the registry could not answer: the next call probes again.
    this.referrersApiProbe = asked.then(
      answer => answer.hasApi,
      () => undefined,
    );
    return (await asked).found;
  }

  /** cosign's tag scheme: the manifests of the digest's `.sig` and `.att` tags, those that exist. */
  async cosignTags(name: string, digest: string): Promise<CosignTag[]> {
    const tags = await Promise.all(
      (['sig', 'att'] as const).map(async suffix => {
        const tagged = await this.manifest(name, `${digest.replace(':', '-')}.${suffix}`);
        return tagged ? [{ suffix, ...tagged }] : [];
      }),
    );
    return tags.flat();
  }

  /**
   * The referrers API's answer, and whether the registry has the API: a 404 or
   * 405 says it has not (Distribution 2.8), and the referrers tag answers instead.
   */
  private async referrersApi(
    name: string,
    digest: string,
    artifactType?: string,
  ): Promise<{ found: Descriptor[]; hasApi: boolean }> {
    const filter = artifactType ? `?artifactType=${encodeURIComponent(artifactType)}` : '';
    const api = await this.request(name, `referrers/${digest}${filter}`, 'GET', [OCI_INDEX]);
    if (api.ok && (api.headers.get('content-type') ?? '').includes(OCI_INDEX)) {
      return { found: descriptorsOf(parseJson(await this.body(api), `the referrers of ${name}@${digest}`)), hasApi: true };
    }
    if (api.status !== 404 && api.status !== 405 && !api.ok) throw this.unexpected(api, `GET the referrers of ${name}@${digest}`);
    await api.body?.cancel();
    return { found: await this.referrersTag(name, digest), hasApi: api.ok };
  }

  /** The referrers tag `sha256-<hex>`, which clients keep up to date where the registry has no referrers API. */
  private async referrersTag(name: string, digest: string): Promise<Descriptor[]> {
    const tagged = await this.manifest(name, digest.replace(':', '-'));
    return tagged ? descriptorsOf(tagged.manifest) : [];
  }

  private unexpected(response: Response, what: string): RegistryUnavailableError {
    return new RegistryUnavailableError(`${what}: HTTP ${response.status}${response.status === 401 ? ' (check promotions.provenance.registry credentials)' : ''}`);
  }

  /** The answer's bytes, at most `maxBytes` of them. */
  private body(response: Response): Promise<Buffer> {
    const { maxBytes } = this.options;
    return readBodyWithin(
      response,
      maxBytes,
      bytes => new RegistryUnavailableError(`an answer of ${bytes} bytes is over the ${maxBytes} read at most`),
    );
  }

  /** One request through the concurrency bound, with auth and Retry-After. */
  private async request(name: string, path: string, method: 'GET' | 'HEAD', accept: string[]): Promise<Response> {
    const url = `${this.options.baseUrl}/v2/${name}/${path}`;
    let waited = 0;
    for (;;) {
      const response = await this.limit(() => this.send(url, method, accept, name));
      const retryAfterMs = retryAfter(response);
      if ((response.status !== 429 && response.status !== 503) || retryAfterMs === undefined) return response;
      if (waited + retryAfterMs > this.options.maxRetryWaitMs) return response;
      await response.body?.cancel();
      waited += retryAfterMs;
      await this.options.sleep(retryAfterMs);
    }
  }

  private async send(url: string, method: string, accept: string[], name: string): Promise<Response> {
    const attempt = (authorization?: string) => this.fetchFollowing(url, method, accept, authorization);
    const response = await attempt(this.bearer.get(name) ?? this.basic());
    if (response.status !== 401) return response;
    const challenge = response.headers.get('www-authenticate') ?? '';
    if (!/^bearer /i.test(challenge)) return response;
    await response.body?.cancel();
    const token = await this.token(challenge, name);
    this.bearer.set(name, `Bearer ${token}`);
    return attempt(`Bearer ${token}`);
  }

  /**
   * One call, following redirects by hand: to the registry itself with the
   * credentials, to an allowed host without them, and nowhere else (a
   * registry that sends its client elsewhere is unavailable, and the other
   * host's answer is never read).
   */
  private async fetchFollowing(url: string, method: string, accept: string[], authorization?: string): Promise<Response> {
    let target = new URL(url);
    for (let hop = 0; hop <= MAX_REDIRECTS; hop += 1) {
      const home = target.host === this.registryHost;
      const response = await fetch(target, {
        method,
        redirect: 'manual',
        headers: { accept: accept.join(', '), ...(authorization && home ? { authorization } : {}) },
        signal: AbortSignal.timeout(this.options.timeoutMs),
      }).catch(error => {
        throw new RegistryUnavailableError(
          `${method} ${target.origin}${target.pathname}: ${error?.name === 'TimeoutError' ? `no answer in ${this.options.timeoutMs} ms` : error?.cause?.code ?? error?.message}`,
        );
      });
      const location = REDIRECTS.includes(response.status) ? response.headers.get('location') : null;
      if (!location) return response;
      await response.body?.cancel();
      target = this.permitted(new URL(location, target), 'redirected to');
    }
    throw new RegistryUnavailableError(`${method} ${url}: more than ${MAX_REDIRECTS} redirects`);
  }

  /**
   * A URL the registry sent its client to, if the client may go there: the
   * registry's own host or an allowed one, over https (plain http only on
   * loopback, or where the registry itself is plain http on that host).
   */
  private permitted(url: URL, how: string): URL {
    const home = url.host === this.registryHost;
    if (!home && !this.options.allowedHosts.includes(url.host)) {
      throw new RegistryUnavailableError(
        `the registry ${how} another host, ${url.host}, which promotions.provenance.registry.allowedHosts does not list: not followed`,
      );
    }
    const plainAllowed = isLoopback(url.hostname) || (home && new URL(this.options.baseUrl).protocol === 'http:');
    if (url.protocol !== 'https:' && !(url.protocol === 'http:' && plainAllowed)) {
      throw new RegistryUnavailableError(`the registry ${how} ${url.protocol}//${url.host}, not https: not followed`);
    }
    return url;
  }

  private basic(): string | undefined {
    const { credentials } = this.options;
    return credentials ? `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`).toString('base64')}` : undefined;
  }

  /** The Bearer challenge's token (Docker's token auth, which registries answer pull scopes with). */
  private async token(challenge: string, name: string): Promise<string> {
    const params = Object.fromEntries([...challenge.matchAll(/(\w+)="([^"]*)"/g)].map(match => [match[1], match[2]]));
    if (!params.realm) throw new RegistryUnavailableError(`a Bearer challenge without a realm: ${challenge.slice(0, 200)}`);
    let realm: URL;
    try {
      realm = new URL(params.realm);
    } catch {
      throw new RegistryUnavailableError(`a Bearer challenge whose realm is not a URL: ${params.realm.slice(0, 200)}`);
    }
    // The credentials go to the token service: only one the registry's operator named.
    const url = this.permitted(realm, 'asked for a token from');
    if (params.service) url.searchParams.set('service', params.service);
    url.searchParams.set('scope', params.scope ?? `repository:${name}:pull`);
    const basic = this.basic();
    const response = await fetch(url, {
      redirect: 'error',
      headers: basic ? { authorization: basic } : {},
      signal: AbortSignal.timeout(this.options.timeoutMs),
    }).catch(error => {
      throw new RegistryUnavailableError(`the registry's token service ${url.origin}: ${error?.message}`);
    });
    if (!response.ok) throw this.unexpected(response, `a token from ${url.origin}`);
    const body = parseJson(await this.body(response), 'the token answer') as { token?: string; access_token?: string };
    const token = body.token ?? body.access_token;
    if (!token) throw new RegistryUnavailableError(`the token service ${url.origin} answered no token`);
    return token;
  }
}

function sha256(bytes: Buffer): string {
  return `sha256:${crypto.createHash('sha256').update(bytes).digest('hex')}`;
}

function parseJson(bytes: Buffer, what: string): unknown {
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new RegistryUnavailableError(`${what} is not JSON`);
  }
}

function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127\./.test(hostname);
}

function isDescriptor(entry: unknown): entry is Descriptor {
  const candidate = entry as Partial<Descriptor> | null;
  return (
    typeof candidate === 'object' &&
    candidate !== null &&
    typeof candidate.digest === 'string' &&
    DIGEST.test(candidate.digest) &&
    typeof candidate.mediaType === 'string' &&
    (candidate.artifactType === undefined || typeof candidate.artifactType === 'string')
  );
}

/** The descriptors an index lists, only well-formed ones. */
function descriptorsOf(index: unknown): Descriptor[] {
  const manifests = (index as { manifests?: unknown })?.manifests;
  if (!Array.isArray(manifests)) return [];
  return manifests.filter(isDescriptor);
}

/**
 * A manifest as provenance reads it, from JSON a registry may have made up:
 * an object, its descriptors well-formed, or an error that says what is wrong
 * with it (never a runtime error's text later, reading `layers` of null).
 */
function manifestOf(json: unknown, what: string): OciManifest {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw new RegistryUnavailableError(`${what} is not an OCI manifest: a JSON ${json === null ? 'null' : Array.isArray(json) ? 'array' : typeof json}`);
  }
  const raw = json as Record<string, unknown>;
  const descriptors = (key: 'layers'): Descriptor[] | undefined => {
    const list = raw[key];
    if (list === undefined) return undefined;
    if (!Array.isArray(list) || !list.every(isDescriptor)) {
      throw new RegistryUnavailableError(`${what} has ${key} that are not a list of descriptors (mediaType, sha256 digest)`);
    }
    return list;
  };
  const text = (key: 'mediaType' | 'artifactType') => (typeof raw[key] === 'string' ? (raw[key] as string) : undefined);
  const layers = descriptors('layers');
  // An index's entries the client cannot use are left out, as the referrers API's are.
  const manifests = raw.manifests === undefined ? undefined : descriptorsOf(raw);
  const config = raw.config === undefined ? undefined : raw.config;
  if (config !== undefined && !isDescriptor(config)) {
    throw new RegistryUnavailableError(`${what} has a config that is not a descriptor (mediaType, sha256 digest)`);
  }
  return {
    ...(text('mediaType') ? { mediaType: text('mediaType') } : {}),
    ...(text('artifactType') ? { artifactType: text('artifactType') } : {}),
    ...(config ? { config } : {}),
    ...(layers ? { layers } : {}),
    ...(manifests ? { manifests } : {}),
  };
}

/** `Retry-After` in ms (seconds or an HTTP date); undefined when absent or unreadable. */
function retryAfter(response: Response): number | undefined {
  const value = response.headers.get('retry-after');
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}
