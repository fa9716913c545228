import fs from 'fs';
import path from 'path';

const REPO_ROOT = path.resolve(__dirname, '../../../..');
/** Where the "Try it" steps are: README.md, and the same text in the TechDocs page. */
const SOURCES = ['README.md', 'docs/try-it.md'];

function markedSection(text: string, name: string): string | undefined {
  const start = `<!-- try-it: ${name} -->`;
  const from = text.indexOf(start);
  if (from < 0) return undefined;
  const to = text.indexOf('<!-- /try-it -->', from);
  if (to < 0) throw new Error(`${start} has no closing <!-- /try-it -->`);
  return text.slice(from + start.length, to);
}

/**
 * The "Try it" steps marked `<!-- try-it: name -->` … `<!-- /try-it -->` in
 * README.md, with the file's name. docs/try-it.md (TechDocs) carries the same
 * sections: they must be the same text, so the docs never drift from what the
 * tests perform. Line breaks and Markdown emphasis are folded away, so a test
 * can look for a sentence however the file wraps it.
 */
export function tryItSection(name: string): { source: string; text: string; commands: string[] } {
  const [readme, docs] = SOURCES.map(source =>
    markedSection(fs.readFileSync(path.join(REPO_ROOT, source), 'utf8'), name),
  );
  if (readme === undefined) throw new Error(`No "Try it" section ${name} in ${SOURCES[0]}`);
  if (docs !== readme) {
    throw new Error(`The "Try it" section ${name} of ${SOURCES[1]} differs from ${SOURCES[0]}'s: keep them the same`);
  }
  const commands = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)].flatMap(block =>
    block[1].split('\n').map(line => line.trim()).filter(Boolean),
  );
  const text = readme.replace(/[*`]/g, '').replace(/\s+/g, ' ');
  return { source: SOURCES[0], text, commands };
}

/** The repository root, where the steps' commands run. */
export const TRY_IT_DIR = REPO_ROOT;
