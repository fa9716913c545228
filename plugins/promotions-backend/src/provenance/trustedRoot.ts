import crypto from 'crypto';
import fs from 'fs';
import os from 'os';
import path from 'path';
import { TrustedRoot } from '@sigstore/protobuf-specs';
import { getTrustedRoot } from '@sigstore/tuf';
import { TrustedRootSource, TufRootSource } from './provenanceConfig';

/** A trusted root and what identifies it (a result verified under another root is not reused). */
export interface LoadedTrustedRoot {
  root: unknown;
  id: string;
}

/** How long a root read through TUF stands before TUF is asked again: Sigstore rotates its keys now and then. */
const TUF_REFRESH_MS = 24 * 60 * 60 * 1000;

const identified = (text: string, root: unknown): LoadedTrustedRoot => ({
  root,
  id: crypto.createHash('sha256').update(text).digest('hex'),
});

const parse = (text: string, where: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    throw new Error(`the trusted root at ${where} is not JSON`);
  }
};

/** What @sigstore/tuf ships: each mirror's root.json and targets (base64), trusted_root.json among them. */
type TufSeeds = Record<string, { targets?: Record<string, string> }>;

/**
 * The public-good trusted root through TUF (@sigstore/tuf): the mirror's
 * metadata, verified from the root the library embeds, then its
 * trusted_root.json target. Offline, the trusted_root.json the library
 * embeds, as of its release: no request, but stale once Sigstore rotates a key.
 */
async function tufTrustedRoot(source: TufRootSource): Promise<LoadedTrustedRoot> {
  if (source.offline) {
    const seeds: TufSeeds = JSON.parse(fs.readFileSync(require.resolve('@sigstore/tuf/seeds.json'), 'utf8'));
    const embedded = seeds[source.mirror]?.targets?.['trusted_root.json'];
    if (!embedded) throw new Error(`@sigstore/tuf embeds no trusted_root.json for ${source.mirror}`);
    const text = Buffer.from(embedded, 'base64').toString('utf8');
    return identified(text, parse(text, `@sigstore/tuf's seed for ${source.mirror}`));
  }
  const root = await getTrustedRoot({
    mirrorURL: source.mirror,
    cachePath: source.cachePath ?? path.join(os.tmpdir(), 'refplat-promotions-tuf'),
  });
  const json = TrustedRoot.toJSON(root);
  return identified(JSON.stringify(json), json);
}

/**
 * Sigstore's trusted root from `promotions.provenance.trustedRoot`: a file is
 * read at start (a wrong path fails the start, with its name); a URL is
 * fetched on first use and again after a failure, so a backend starting
 * before the URL answers still starts; the public-good root is read through
 * TUF likewise, and again a day later.
 */
export class TrustedRoots {
  private loaded?: Promise<LoadedTrustedRoot>;
  /** When a TUF read began: such a root is read again after TUF_REFRESH_MS. */
  private loadedAt?: number;

  constructor(private readonly source: TrustedRootSource) {
    if ('file' in source) {
      let text: string;
      try {
        text = fs.readFileSync(source.file, 'utf8');
      } catch (error) {
        throw new Error(`promotions.provenance.trustedRoot.file ${source.file} could not be read: ${(error as Error).message}`);
      }
      this.loaded = Promise.resolve(identified(text, parse(text, source.file)));
    }
  }

  load(): Promise<LoadedTrustedRoot> {
    if (this.loaded && this.loadedAt !== undefined && Date.now() - this.loadedAt > TUF_REFRESH_MS) this.loaded = undefined;
    if (!this.loaded) {
      this.loadedAt = 'tuf' in this.source ? Date.now() : undefined;
      this.loaded = this.read().catch(error => {
        this.loaded = undefined;
        throw error;
      });
    }
    return this.loaded;
  }

  private async read(): Promise<LoadedTrustedRoot> {
    if ('tuf' in this.source) return tufTrustedRoot(this.source.tuf);
    const { url } = this.source as { url: string };
    const response = await fetch(url, { signal: AbortSignal.timeout(10_000) });
    if (!response.ok) throw new Error(`the trusted root at ${url} answered HTTP ${response.status}`);
    const text = await response.text();
    return identified(text, parse(text, url));
  }
}
