import { execFileSync } from 'child_process';
import fs from 'fs';
import path from 'path';
import { Document, isMap, isNode, isSeq, parse, parseDocument } from 'yaml';
import { REPO_ROOT } from './tarballs';

/** Where the README's steps expect the packed tarballs. */
const README_TARBALL_DIR = '/tmp/refplat';

/**
 * The code of the fenced block that follows `<!-- install-steps: name -->`
 * in the repository README's Install section, without its indentation:
 * the install tests perform the README's own text, not a copy of it.
 */
export function readmeSteps(name: string): string {
  const readme = fs.readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
  const marker = `<!-- install-steps: ${name} -->`;
  const at = readme.indexOf(marker);
  if (at < 0) throw new Error(`README.md has no "${marker}"`);
  const block = /^([ \t]*)```[a-z]*\n([\s\S]*?)\n[ \t]*```/m.exec(
    readme.slice(at + marker.length),
  );
  if (!block) throw new Error(`no fenced block after "${marker}"`);
  const indent = block[1];
  return block[2]
    .split('\n')
    .map(line => (line.startsWith(indent) ? line.slice(indent.length) : line))
    .join('\n');
}

/**
 * Runs a README shell block in `cwd` with bash, its tarball folder
 * replaced by `tarballDir`; returns the output.
 */
export function runShellSteps(
  name: string,
  cwd: string,
  tarballDir: string,
  env: NodeJS.ProcessEnv = process.env,
): string {
  const script = readmeSteps(name).split(README_TARBALL_DIR).join(tarballDir);
  return execFileSync('bash', ['-euo', 'pipefail', '-c', script], {
    cwd,
    env,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 15 * 60_000,
  });
}

/** Puts the README's backend line before `backend.start()` in `indexFile`. */
export function addBackendStep(indexFile: string) {
  const source = fs.readFileSync(indexFile, 'utf8');
  const start = source.lastIndexOf('backend.start()');
  if (start < 0) throw new Error(`${indexFile} has no backend.start()`);
  const line = readmeSteps('backend').trim();
  fs.writeFileSync(
    indexFile,
    `${source.slice(0, start)}${line}\n${source.slice(start)}`,
  );
}

/** The plain value of a YAML node, for comparing list items. */
function plain(node: unknown): string {
  return JSON.stringify(isNode(node) ? node.toJSON() : node);
}

function mergeInto(doc: Document, at: unknown[], value: unknown) {
  if (Array.isArray(value)) {
    const existing = doc.getIn(at, true);
    if (!isSeq(existing)) {
      doc.setIn(at, value);
      return;
    }
    for (const item of value) {
      if (!existing.items.some(node => plain(node) === plain(item))) {
        existing.add(doc.createNode(item));
      }
    }
  } else if (value && typeof value === 'object') {
    if (at.length && !isMap(doc.getIn(at, true))) doc.setIn(at, {});
    for (const [key, child] of Object.entries(value)) {
      mergeInto(doc, [...at, key], child);
    }
  } else {
    doc.setIn(at, value);
  }
}

/**
 * Adds a README YAML step to `configFile` as a person editing it would:
 * list items are appended to the lists already there, keeping the file's
 * other settings and comments.
 */
export function addConfigStep(name: string, configFile: string) {
  const doc = parseDocument(fs.readFileSync(configFile, 'utf8'));
  mergeInto(doc, [], parse(readmeSteps(name)));
  fs.writeFileSync(configFile, doc.toString());
}
