import crypto from 'crypto';

/** OCI media types the simulated CI pushes. */
export const OCI_MANIFEST = 'application/vnd.oci.image.manifest.v1+json';
export const OCI_INDEX = 'application/vnd.oci.image.index.v1+json';
export const OCI_EMPTY = 'application/vnd.oci.empty.v1+json';

export interface Descriptor {
  mediaType: string;
  digest: string;
  size: number;
  artifactType?: string;
  annotations?: Record<string, string>;
}

export const sha256 = (bytes: Buffer | string) => `sha256:${crypto.createHash('sha256').update(bytes).digest('hex')}`;

async function expectStatus(response: Response, expected: number, what: string): Promise<Response> {
  if (response.status !== expected) {
    throw new Error(`${what}: the registry answered ${response.status} ${await response.text()}`);
  }
  return response;
}

/** Uploads a blob in one request (POST an upload, PUT its bytes with the digest). */
export async function pushBlob(registryUrl: string, name: string, bytes: Buffer, mediaType: string): Promise<Descriptor> {
  const digest = sha256(bytes);
  const started = await expectStatus(
    await fetch(`${registryUrl}/v2/${name}/blobs/uploads/`, { method: 'POST' }),
    202,
    `starting an upload to ${name}`,
  );
  const location = new URL(started.headers.get('location')!, registryUrl);
  location.searchParams.set('digest', digest);
  await expectStatus(
    await fetch(location, { method: 'PUT', body: new Uint8Array(bytes), headers: { 'content-type': 'application/octet-stream' } }),
    201,
    `uploading ${digest} to ${name}`,
  );
  return { mediaType, digest, size: bytes.length };
}

/** Puts a manifest (or index) under its digest, or under a tag. */
export async function pushManifest(
  registryUrl: string,
  name: string,
  manifest: object,
  reference?: string,
): Promise<Descriptor> {
  const bytes = Buffer.from(JSON.stringify(manifest));
  const mediaType = (manifest as { mediaType: string }).mediaType;
  const digest = sha256(bytes);
  await expectStatus(
    await fetch(`${registryUrl}/v2/${name}/manifests/${reference ?? digest}`, {
      method: 'PUT',
      body: bytes,
      headers: { 'content-type': mediaType },
    }),
    201,
    `putting manifest ${reference ?? digest} of ${name}`,
  );
  const artifactType = (manifest as { artifactType?: string }).artifactType;
  return { mediaType, digest, size: bytes.length, ...(artifactType ? { artifactType } : {}) };
}

/** A small real image: its blobs (a config and one layer), the manifest naming them, and the manifest's descriptor. */
export interface ImageContent {
  blobs: Array<{ bytes: Buffer; mediaType: string }>;
  manifest: object;
  descriptor: Descriptor;
}

const describe = (bytes: Buffer, mediaType: string): Descriptor => ({ mediaType, digest: sha256(bytes), size: bytes.length });

/**
 * The image of one build, not pushed: a config, one layer (a tar of one file
 * naming the service and build) and a manifest. Its digest is what a push
 * would answer, so a build that never reached the registry still has one.
 */
export function imageContent(name: string, build: string): ImageContent {
  const layerBytes = Buffer.from(`${name} build ${build}\n`);
  const config = {
    architecture: 'amd64',
    os: 'linux',
    config: { Labels: { 'org.opencontainers.image.revision': build } },
    rootfs: { type: 'layers', diff_ids: [sha256(layerBytes)] },
  };
  const blobs = [
    { bytes: Buffer.from(JSON.stringify(config)), mediaType: 'application/vnd.oci.image.config.v1+json' },
    { bytes: layerBytes, mediaType: 'application/vnd.oci.image.layer.v1.tar' },
  ];
  const [configDescriptor, layer] = blobs.map(blob => describe(blob.bytes, blob.mediaType));
  const manifest = { schemaVersion: 2, mediaType: OCI_MANIFEST, config: configDescriptor, layers: [layer] };
  return { blobs, manifest, descriptor: describe(Buffer.from(JSON.stringify(manifest)), OCI_MANIFEST) };
}

/** Pushes the image of one build (its blobs, then its manifest). Answers its descriptor. */
export async function pushImage(registryUrl: string, name: string, build: string): Promise<Descriptor> {
  const image = imageContent(name, build);
  for (const blob of image.blobs) await pushBlob(registryUrl, name, blob.bytes, blob.mediaType);
  return pushManifest(registryUrl, name, image.manifest);
}

/** The OCI 1.1 referrers tag (`sha256-<hex>`) a client maintains where the registry has no referrers API. */
export const referrersTag = (digest: string) => digest.replace(':', '-');

/**
 * Attaches an artifact (e.g. a sigstore bundle) to a manifest as OCI 1.1
 * does: an artifact manifest whose `subject` is the image, and, since
 * Distribution 2.8 has no referrers API, the referrers tag's index updated to
 * list it (the fallback the OCI distribution spec gives clients).
 */
export async function attachArtifact(
  registryUrl: string,
  name: string,
  subject: Descriptor,
  artifactType: string,
  content: Buffer,
): Promise<Descriptor> {
  const empty = await pushBlob(registryUrl, name, Buffer.from('{}'), OCI_EMPTY);
  const layer = await pushBlob(registryUrl, name, content, artifactType);
  const artifact = await pushManifest(registryUrl, name, {
    schemaVersion: 2,
    mediaType: OCI_MANIFEST,
    artifactType,
    config: empty,
    layers: [layer],
    subject: { mediaType: subject.mediaType, digest: subject.digest, size: subject.size },
  });
  const tag = referrersTag(subject.digest);
  const existing = await fetch(`${registryUrl}/v2/${name}/manifests/${tag}`, { headers: { accept: OCI_INDEX } });
  const manifests: Descriptor[] = existing.status === 200 ? ((await existing.json()) as { manifests: Descriptor[] }).manifests : [];
  await pushManifest(registryUrl, name, { schemaVersion: 2, mediaType: OCI_INDEX, manifests: [...manifests, artifact] }, tag);
  return artifact;
}
