/**
 * alpha/shop's dev Release file as the platform repo holds it. `services` is the YAML under
 * `spec.services`, verbatim, so a test can also write an entry the parser must refuse.
 */
export function devReleaseFile(services: string): string {
  return `# the dev rung
apiVersion: platform.refplat.org/v1beta1
kind: Release
metadata:
  name: alpha-shop-dev
spec:
  environmentRef: alpha-shop-dev
  services:
${services}`;
}

/** The `spec.services` entries of a Release pinning each service to its digest. */
export function digestEntries(digests: Record<string, string>): string {
  return Object.entries(digests)
    .map(([service, digest]) => `    ${service}:\n      digest: ${digest}\n`)
    .join('');
}
