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
import fc from 'fast-check';
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
    // One push at a time: two uploads of one new blob at once (the artifacts' shared `{}`) race in
    // Distribution, which answers one of them DIGEST_INVALID when no test pushed that blob before.
    const images = [];
    const attached = [];
    for (const build of ['once', 'twice']) {
      const image = await pushImage(registry.url, NAME, build);
      images.push(image);
      attached.push(await attachArtifact(registry.url, NAME, image, BUNDLE, Buffer.from('{}')));
    }
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

  it('probes the referrers API once for many digests read at once (a start), then reads their referrers tags', async () => {
    const fake = await scriptedRegistry((req, res) => {
      if (req.url?.includes('/referrers/')) res.writeHead(404).end();
      else res.writeHead(200, { 'content-type': 'application/vnd.oci.image.index.v1+json' }).end(JSON.stringify({ schemaVersion: 2, manifests: [] }));
    });
    stop = fake.stop;
    const client = new OciRegistry({ baseUrl: fake.url });
    const digests = Array.from({ length: 8 }, (_, i) => `sha256:${String(i).repeat(64)}`);
    await Promise.all(digests.map(digest => client.referrers(NAME, digest, BUNDLE)));
    expect(fake.requests.filter(call => call.includes('/referrers/'))).toHaveLength(1);
    expect(fake.requests.filter(call => call.includes('/manifests/sha256-'))).toHaveLength(digests.length);
  });

  it('probes again after a probe the registry could not answer', async () => {
    let down = true;
    const fake = await scriptedRegistry((req, res) => {
      if (down) res.writeHead(500).end();
      else if (req.url?.includes('/referrers/')) res.writeHead(404).end();
      else res.writeHead(404).end();
    });
    stop = fake.stop;
    const client = new OciRegistry({ baseUrl: fake.url });
    await expect(client.referrers(NAME, DIGEST, BUNDLE)).rejects.toThrow(/HTTP 500/);
    down = false;
    expect(await client.referrers(NAME, DIGEST, BUNDLE)).toEqual([]);
    expect(fake.requests.filter(call => call.includes('/referrers/'))).toHaveLength(2);
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

describe("OciRegistry at the registry's trust boundary", () => {
  const DIGEST = `sha256:${'b'.repeat(64)}`;
  const servers: Array<{ stop: () => Promise<void> }> = [];
  const serve = async (answer: (req: http.IncomingMessage, res: http.ServerResponse) => void) => {
    const fake = await scriptedRegistry(answer);
    servers.push(fake);
    return fake;
  };
  afterEach(async () => {
    await Promise.all(servers.splice(0).map(server => server.stop()));
  });

  it('cuts off a chunked 1 GB answer at the bytes it reads, with bounded memory', async () => {
    let sent = 0;
    const fake = await serve((_req, res) => {
      // No Content-Length: chunked, as a hostile registry sends it.
      res.writeHead(200, { 'content-type': 'application/vnd.oci.image.manifest.v1+json' });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const pump = () => {
        while (sent < 1024 ** 3 && !res.destroyed) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      res.on('close', () => {
        sent = Math.min(sent, 1024 ** 3);
      });
      pump();
    });
    global.gc?.();
    const before = process.memoryUsage().rss;
    await expect(new OciRegistry({ baseUrl: fake.url }).manifest(NAME, 'latest')).rejects.toThrow(
      /an answer of more than 4194304 bytes is over the 4194304 read at most/,
    );
    const grownMb = (process.memoryUsage().rss - before) / 1024 ** 2;
    expect(grownMb).toBeLessThan(50);
    // The read stopped the transfer: nowhere near the gigabyte was sent.
    expect(sent).toBeLessThan(256 * 1024 ** 2);
  });

  /** A registry whose Bearer challenge points at `realm`. */
  const challenging = (realm: (req: http.IncomingMessage) => string) =>
    serve((req, res) => {
      if (req.headers.authorization?.startsWith('Bearer ')) res.writeHead(200).end();
      else res.writeHead(401, { 'www-authenticate': `Bearer realm="${realm(req)}",service="registry"` }).end();
    });

  const tokenService = () =>
    serve((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ token: 't0ken' })));

  it("sends no credentials to a token service on another host, unless it is listed", async () => {
    const elsewhere = await tokenService();
    const registry = await challenging(() => `${elsewhere.url}/token`);
    const credentials = { username: 'ci', password: 'secret' };

    const refused = new OciRegistry({ baseUrl: registry.url, credentials }).hasManifest(NAME, DIGEST);
    await expect(refused).rejects.toThrow(
      `the registry asked for a token from another host, ${new URL(elsewhere.url).host}, which promotions.provenance.registry.allowedHosts does not list: not followed`,
    );
    expect(elsewhere.requests).toEqual([]);

    const listed = new OciRegistry({ baseUrl: registry.url, credentials, allowedHosts: [new URL(elsewhere.url).host] });
    expect(await listed.hasManifest(NAME, DIGEST)).toBe(true);
    expect(elsewhere.requests).toHaveLength(1);
  });

  it('asks no token service over plain http beyond loopback, listed or not', async () => {
    const registry = await challenging(() => 'http://auth.registry.example/token');
    const client = new OciRegistry({ baseUrl: registry.url, credentials: { username: 'ci', password: 'secret' }, allowedHosts: ['auth.registry.example'] });
    await expect(client.hasManifest(NAME, DIGEST)).rejects.toThrow(
      'the registry asked for a token from http://auth.registry.example, not https: not followed',
    );
  });

  it("follows no redirect to another host, and says nothing of that host's answer", async () => {
    const elsewhere = await serve((_req, res) => res.writeHead(418).end('teapot'));
    const registry = await serve((req, res) =>
      res.writeHead(307, { location: `${elsewhere.url}/storage${req.url}` }).end(),
    );
    const attempt = new OciRegistry({ baseUrl: registry.url, credentials: { username: 'ci', password: 'secret' } }).blob(NAME, DIGEST);
    await expect(attempt).rejects.toThrow(/redirected to another host, 127\.0\.0\.1:\d+, which promotions\.provenance\.registry\.allowedHosts does not list/);
    await expect(attempt).rejects.not.toThrow(/418/);
    expect(elsewhere.requests).toEqual([]);
  });

  it('follows a redirect to a listed host without the credentials, and checks what it serves', async () => {
    const content = Buffer.from('a layer');
    const digest = `sha256:${require('crypto').createHash('sha256').update(content).digest('hex')}`;
    const storage = await serve((_req, res) => res.writeHead(200).end(content));
    const registry = await serve((req, res) => res.writeHead(307, { location: `${storage.url}/storage${req.url}` }).end());
    const client = new OciRegistry({
      baseUrl: registry.url,
      credentials: { username: 'ci', password: 'secret' },
      allowedHosts: [new URL(storage.url).host],
    });
    expect(await client.blob(NAME, digest)).toEqual(content);
    expect(registry.requests[0]).toMatch(/ Basic /);
    expect(storage.requests).toEqual([`GET /storage/v2/${NAME}/blobs/${digest}`]);
  });

  it.each([
    ['null', 'the manifest team-alpha/shop-storefront:latest is not an OCI manifest: a JSON null'],
    ['[1, 2]', 'the manifest team-alpha/shop-storefront:latest is not an OCI manifest: a JSON array'],
    ['{"layers": null}', 'the manifest team-alpha/shop-storefront:latest has layers that are not a list of descriptors (mediaType, sha256 digest)'],
    ['{"layers": [{"digest": 7}]}', 'the manifest team-alpha/shop-storefront:latest has layers that are not a list of descriptors (mediaType, sha256 digest)'],
    ['{"config": "x"}', 'the manifest team-alpha/shop-storefront:latest has a config that is not a descriptor (mediaType, sha256 digest)'],
  ])('says what is wrong with the manifest %s, in words', async (body, reason) => {
    const registry = await serve((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(body));
    await expect(new OciRegistry({ baseUrl: registry.url }).manifest(NAME, 'latest')).rejects.toThrow(
      new RegistryUnavailableError(reason),
    );
  });

  it('answers any JSON with a manifest or a reason, never a runtime error (fuzzed)', async () => {
    let body = '{}';
    const registry = await serve((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(body));
    const client = new OciRegistry({ baseUrl: registry.url });
    const descriptor = fc.record(
      {
        mediaType: fc.oneof(fc.string(), fc.constant(null)),
        digest: fc.oneof(fc.constant(DIGEST), fc.string(), fc.integer()),
        size: fc.oneof(fc.nat(), fc.string()),
        artifactType: fc.oneof(fc.string(), fc.constant(null)),
      },
      { requiredKeys: [] },
    );
    const manifest = fc.oneof(
      fc.jsonValue(),
      fc.record(
        {
          mediaType: fc.jsonValue(),
          artifactType: fc.jsonValue(),
          config: fc.oneof(descriptor, fc.jsonValue()),
          layers: fc.oneof(fc.array(fc.oneof(descriptor, fc.jsonValue())), fc.jsonValue()),
          manifests: fc.oneof(fc.array(fc.oneof(descriptor, fc.jsonValue())), fc.jsonValue()),
        },
        { requiredKeys: [] },
      ),
    );
    await fc.assert(
      fc.asyncProperty(manifest, async value => {
        body = JSON.stringify(value) ?? 'null';
        const read = await client.manifest(NAME, 'latest').then(
          answer => answer!.manifest,
          error => error,
        );
        if (read instanceof Error) {
          expect(read).toBeInstanceOf(RegistryUnavailableError);
          return;
        }
        for (const entry of [...(read.layers ?? []), ...(read.manifests ?? []), ...(read.config ? [read.config] : [])]) {
          expect(entry.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
          expect(typeof entry.mediaType).toBe('string');
        }
      }),
      { numRuns: 200 },
    );
  });
});
