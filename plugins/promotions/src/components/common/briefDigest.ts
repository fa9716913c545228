/**
 * The first 7 hex digits of an image digest, as git shortens commits: enough
 * to tell a Product's digests apart on a ladder; the full one is on hover.
 */
export function briefDigest(digest: string): string {
  const colon = digest.indexOf(':');
  return digest.slice(colon + 1, colon + 8);
}
