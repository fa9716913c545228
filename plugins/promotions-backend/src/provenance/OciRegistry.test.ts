import http from 'http';
import { AddressInfo } from 'net';
import {
  RunningRegistry,
  attachArtifact,
  dockerRegistryInstalled,
  imageContent,
  pushImage,
  pushManifest,
  startDockerRegistry,
} from '@refplat/platform-sim';
import { OciRegistry, RegistryUnavailableError } from './OciRegistry';

const BUNDLE = 'application/vnd.dev.sigstore.bundle.v0.3+json';
const NAME = 'team-alpha/shop-storefront';

const describeWithRegistry = dockerRegistryInstalled() ? describe : describe.skip;
if (!dockerRegistryInstalled()) {
  // eslint-disable-next-line no-console
  console.warn('docker-registry is not installed (apt-get install -y docker-registry): the real-registry cases are skipped');
}

describeWithRegistry('OciRegistry against Distribution (docker-registry)', () => {
  let registry: RunningRegistry;
  beforeAll(async () => {
    registry = await startDockerRegistry();
  }, 60_000);
  afterAll(() => registry?.stop());

  it('finds a pushed manifest, and not one never pushed', async () => {
    const image = await pushImage(registry.url, NAME, 'c0ffee');
    const client = new OciRegistry({ baseUrl: registry.url });
    expect(await client.hasManifest(NAME, image.digest)).toBe(true);
    expect(await client.hasManifest(NAME, `sha256:${'0'.repeat(64)}`)).toBe(false);
  });

  it('finds a bundle attached OCI 1.1 style through the referrers tag, and reads it checked', async () => {
    const image = await pushImage(registry.url, NAME, 'referrers');
    const content = Buffer.from(JSON.stringify({ mediaType: BUNDLE }));
    const attached = await attachArtifact(registry.url, NAME, image, BUNDLE, content);
    await attachArtifact(registry.url, NAME, image, 'application/spdx+json', Buffer.from('{}'));

    const client = new OciRegistry({ baseUrl: registry.url });
    const referrers = await client.referrers(NAME, image.digest, BUNDLE);
    expect(referrers.map(referrer => referrer.digest)).toEqual([attached.digest]);
    const artifact = await client.manifest(NAME, attached.digest);
    expect(artifact?.manifest.artifactType).toBe(BUNDLE);
    expect(await client.blob(NAME, artifact!.manifest.layers![0].digest)).toEqual(content);
  });

  it('asks for the referrers API once: after its 404, the referrers tag straight away', async () => {
    const images = await Promise.all(['once', 'twice'].map(build => pushImage(registry.url, NAME, build)));
    const attached = await Promise.all(images.map(image => attachArtifact(registry.url, NAME, image, BUNDLE, Buffer.from('{}'))));
    const client = new OciRegistry({ baseUrl: registry.url });
    const spy = jest.spyOn(globalThis, 'fetch');
    try {
      for (const [i, image] of images.entries()) {
        expect((await client.referrers(NAME, image.digest, BUNDLE)).map(referrer => referrer.digest)).toEqual([attached[i].digest]);
      }
      expect(spy.mock.calls.map(([url]) => new URL(String(url)).pathname)).toEqual([
        `/v2/${NAME}/referrers/${images[0].digest}`,
        `/v2/${NAME}/manifests/${images[0].digest.replace(':', '-')}`,
        `/v2/${NAME}/manifests/${images[1].digest.replace(':', '-')}`,
      ]);
    } finally {
      spy.mockRestore();
    }
  });

  it("reads cosign's .sig and .att tags, those there are", async () => {
    const image = await pushImage(registry.url, NAME, 'cosign');
    // cosign's .sig tag names a manifest of its own: here a small image's, pushed under the tag.
    const signature = await pushImage(registry.url, NAME, 'a signature');
    await pushManifest(registry.url, NAME, imageContent(NAME, 'a signature').manifest, `${image.digest.replace(':', '-')}.sig`);
    const tags = await new OciRegistry({ baseUrl: registry.url }).cosignTags(NAME, image.digest);
    expect(tags).toEqual([{ suffix: 'sig', digest: signature.digest, manifest: expect.objectContaining({ layers: expect.any(Array) }) }]);
  });

  it('answers no referrers for an image nothing refers to', async () => {
    const image = await pushImage(registry.url, NAME, 'alone');
    expect(await new OciRegistry({ baseUrl: registry.url }).referrers(NAME, image.digest, BUNDLE)).toEqual([]);
  });
});

/** A registry that answers what each test scripts, counting requests. */
async function scriptedRegistry(answer: (req: http.IncomingMessage, res: http.ServerResponse) => void) {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    requests.push(`${req.method} ${req.url} ${req.headers.authorization ?? ''}`.trim());
    answer(req, res);
  });
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    requests,
    stop: () => new Promise<void>(resolve => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

describe('OciRegistry when the registry misbehaves', () => {
  const DIGEST = `sha256:${'a'.repeat(64)}`;
  let stop: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await stop?.();
    stop = undefined;
  });

  it.each([
    [401, /HTTP 401 \(check promotions.provenance.registry credentials\)/],
    [500, /HTTP 500/],
    [418, /HTTP 418/],
  ])('answers %p with a clear error', async (status, message) => {
    const fake = await scriptedRegistry((_req, res) => res.writeHead(status).end());
    stop = fake.stop;
    const attempt = new OciRegistry({ baseUrl: fake.url }).hasManifest(NAME, DIGEST);
    await expect(attempt).rejects.toThrow(RegistryUnavailableError);
    await expect(attempt).rejects.toThrow(message);
  });

  it('waits as 429 Retry-After says, then goes on', async () => {
    let calls = 0;
    const fake = await scriptedRegistry((_req, res) => {
      calls += 1;
      if (calls === 1) res.writeHead(429, { 'retry-after': '2' }).end();
      else res.writeHead(200).end();
    });
    stop = fake.stop;
    const waits: number[] = [];
    const client = new OciRegistry({ baseUrl: fake.url, sleep: async ms => void waits.push(ms) });
    expect(await client.hasManifest(NAME, DIGEST)).toBe(true);
    expect(waits).toEqual([2000]);
  });

  it('gives up when Retry-After asks for longer than it waits in all', async () => {
    const fake = await scriptedRegistry((_req, res) => res.writeHead(429, { 'retry-after': '3600' }).end());
    stop = fake.stop;
    const client = new OciRegistry({ baseUrl: fake.url, sleep: async () => undefined });
    await expect(client.hasManifest(NAME, DIGEST)).rejects.toThrow(/HTTP 429/);
  });

  it('does not wait for a registry that hangs', async () => {
    const fake = await scriptedRegistry(() => undefined);
    stop = fake.stop;
    const client = new OciRegistry({ baseUrl: fake.url, timeoutMs: 200 });
    await expect(client.hasManifest(NAME, DIGEST)).rejects.toThrow(/no answer in 200 ms/);
  });

  it('answers unavailable for a registry that is not there', async () => {
    const fake = await scriptedRegistry(() => undefined);
    await fake.stop();
    await expect(new OciRegistry({ baseUrl: fake.url }).hasManifest(NAME, DIGEST)).rejects.toThrow(/ECONNREFUSED/);
  });

  it('takes a Bearer token from the challenge, with the configured credentials', async () => {
    const fake = await scriptedRegistry((req, res) => {
      if (req.url?.startsWith('/token')) {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ token: 't0ken' }));
      } else if (req.headers.authorization === 'Bearer t0ken') {
        res.writeHead(200).end();
      } else {
        res.writeHead(401, { 'www-authenticate': `Bearer realm="http://${req.headers.host}/token",service="registry"` }).end();
      }
    });
    stop = fake.stop;
    const client = new OciRegistry({ baseUrl: fake.url, credentials: { username: 'ci', password: 'secret' } });
    expect(await client.hasManifest(NAME, DIGEST)).toBe(true);
    expect(await client.hasManifest(NAME, DIGEST)).toBe(true);
    const basic = `Basic ${Buffer.from('ci:secret').toString('base64')}`;
    expect(fake.requests).toEqual([
      `HEAD /v2/${NAME}/manifests/${DIGEST} ${basic}`,
      `GET /token?service=registry&scope=repository%3A${encodeURIComponent(NAME)}%3Apull ${basic}`,
      `HEAD /v2/${NAME}/manifests/${DIGEST} Bearer t0ken`,
      `HEAD /v2/${NAME}/manifests/${DIGEST} Bearer t0ken`,
    ]);
  });

  it('reads at most maxReferrers of a 10,000-entry referrers list', async () => {
    const manifests = Array.from({ length: 10_000 }, (_, i) => ({
      mediaType: 'application/vnd.oci.image.manifest.v1+json',
      artifactType: BUNDLE,
      digest: `sha256:${i.toString(16).padStart(64, '0')}`,
      size: 1,
    }));
    const fake = await scriptedRegistry((req, res) => {
      if (req.url?.includes('/referrers/')) {
        res.writeHead(200, { 'content-type': 'application/vnd.oci.image.index.v1+json' }).end(JSON.stringify({ schemaVersion: 2, manifests }));
      } else res.writeHead(404).end();
    });
    stop = fake.stop;
    const referrers = await new OciRegistry({ baseUrl: fake.url, maxReferrers: 16 }).referrers(NAME, DIGEST, BUNDLE);
    expect(referrers).toHaveLength(16);
  });

  it('refuses an answer over the size it reads, and content that is not what its digest says', async () => {
    const fake = await scriptedRegistry((req, res) => {
      if (req.url?.includes('/blobs/')) res.writeHead(200).end('not the content of that digest');
      else res.writeHead(200, { 'content-type': 'application/json' }).end('x'.repeat(2048));
    });
    stop = fake.stop;
    const client = new OciRegistry({ baseUrl: fake.url, maxBytes: 1024 });
    await expect(client.manifest(NAME, 'latest')).rejects.toThrow(/over the 1024 read at most/);
    await expect(client.blob(NAME, DIGEST)).rejects.toThrow(/does not match its digest/);
    await expect(client.manifest(NAME, DIGEST)).rejects.toThrow(RegistryUnavailableError);
  });

  it('takes a malformed referrers index for no referrers, and a non-JSON one for an error', async () => {
    let body = JSON.stringify({ manifests: [{ digest: 'nope' }, 7, null] });
    const fake = await scriptedRegistry((req, res) => {
      if (req.url?.includes('/referrers/')) res.writeHead(200, { 'content-type': 'application/vnd.oci.image.index.v1+json' }).end(body);
      else res.writeHead(404).end();
    });
    stop = fake.stop;
    const client = new OciRegistry({ baseUrl: fake.url });
    expect(await client.referrers(NAME, DIGEST)).toEqual([]);
    body = '{not json';
    await expect(client.referrers(NAME, DIGEST)).rejects.toThrow(/is not JSON/);
  });
});
