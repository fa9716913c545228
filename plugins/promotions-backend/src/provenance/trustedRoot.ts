import crypto from 'crypto';
import fs from 'fs';
import { TrustedRootSource } from './provenanceConfig';

/** A trusted root and what identifies it (a result verified under another root is not reused). */
export interface LoadedTrustedRoot {
  root: unknown;
  id: string;
}

const parse = (text: string, where: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    throw new Error(`the trusted root at ${where} is not JSON`);
  }
};

/**
 * Sigstore's trusted root from `promotions.provenance.trustedRoot`: a file is
 * read at start (a wrong path fails the start, with its name); a URL is
 * fetched on first use and again after a failure, so a backend starting
 * before the URL answers still starts.
 */
export class TrustedRoots {
  private loaded?: Promise<LoadedTrustedRoot>;

  constructor(private readonly source: TrustedRootSource) {
    if ('file' in source) {
      let text: string;
      try {
        text = fs.readFileSync(source.file, 'utf8');
      } catch (error) {
        throw new Error(`promotions.provenance.trustedRoot.file ${source.file} could not be read: ${(error as Error).message}`);
      }
      const loaded = { root: parse(text, source.file), id: crypto.createHash('sha256').update(text).digest('hex') };
      this.loaded = Promise.resolve(loaded);
    }
  }

  /** The URL this was asked for; identifies the root until it is read. */
  get where(): string {
    return 'file' in this.source ? this.source.file : this.source.url;
  }

  load(): Promise<LoadedTrustedRoot> {
    if (!this.loaded) {
      const { url } = this.source as { url: string };
      this.loaded = fetch(url, { signal: AbortSignal.timeout(10_000) })
        .then(async response => {
          if (!response.ok) throw new Error(`the trusted root at ${url} answered HTTP ${response.status}`);
          const text = await response.text();
          return { root: parse(text, url), id: crypto.createHash('sha256').update(text).digest('hex') };
        })
        .catch(error => {
          this.loaded = undefined;
          throw error;
        });
    }
    return this.loaded;
  }
}
