import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';

// Kubernetes pod-template hashes use this alphabet (no vowels, no confusable digits).
const SAFE_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

/**
 * Hashes already computed: every reconcile pass derives each Rollout's view,
 * and with it the hashes of its digests. Hashing them again each pass was the
 * simulator's costliest function in the API tests (7 of its 18 CPU-seconds in
 * the health suites, at a pass every 100 ms).
 */
const templateHashes = new LRUCache<string, string>({
  max: 10_000,
  memoMethod: digest => {
    const bytes = createHash('sha256').update(digest).digest();
    let hash = '';
    for (let i = 0; i < 10; i++)
      hash += SAFE_ALPHABET[bytes[i] % SAFE_ALPHABET.length];
    return hash;
  },
});

/** A stable 10-character pod-template hash for an image digest, like a ReplicaSet suffix. */
export function podTemplateHash(digest: string): string {
  return templateHashes.memo(digest);
}

/** A stable 5-character pod suffix. */
export function podSuffix(seed: string): string {
  return podTemplateHash(seed).slice(0, 5);
}

/**
 * UIDs already derived: every Kubernetes or Argo CD read of a Product's live
 * objects names each object's UID (and its owners'), a SHA-1 each, which was
 * the health suites' costliest hashing (1.5 CPU-seconds of a file's run).
 */
const uids = new LRUCache<string, string>({
  max: 20_000,
  memoMethod: key => {
    const hex = createHash('sha1').update(key).digest('hex');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
  },
});

/** A deterministic UID (UUID shape) for an object, so repeated reads agree. */
export function uidFor(...parts: string[]): string {
  return uids.memo(parts.join('/'));
}

/** Timestamps already formatted, by second: each pass formats every route's condition times again. */
const formattedSeconds = new LRUCache<number, string>({
  max: 1_000,
  memoMethod: second => new Date(second * 1000).toISOString().replace('.000Z', 'Z'),
});

/** Kubernetes timestamps have second precision. */
export function isoSeconds(epochMs: number): string {
  return formattedSeconds.memo(Math.floor(epochMs / 1000));
}
