import { createHash } from 'node:crypto';

// Kubernetes pod-template hashes use this alphabet (no vowels, no confusable digits).
const SAFE_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

/** A stable 10-character pod-template hash for an image digest, like a ReplicaSet suffix. */
export function podTemplateHash(digest: string): string {
  const bytes = createHash('sha256').update(digest).digest();
  let hash = '';
  for (let i = 0; i < 10; i++)
    hash += SAFE_ALPHABET[bytes[i] % SAFE_ALPHABET.length];
  return hash;
}

/** A stable 5-character pod suffix. */
export function podSuffix(seed: string): string {
  return podTemplateHash(seed).slice(0, 5);
}

/** A deterministic UID (UUID shape) for an object, so repeated reads agree. */
export function uidFor(...parts: string[]): string {
  const hex = createHash('sha1').update(parts.join('/')).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/** Kubernetes timestamps have second precision. */
export function isoSeconds(epochMs: number): string {
  return new Date(Math.floor(epochMs / 1000) * 1000)
    .toISOString()
    .replace('.000Z', 'Z');
}
