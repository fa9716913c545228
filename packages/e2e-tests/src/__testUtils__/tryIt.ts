import fs from 'fs';
import path from 'path';

const REPO_ROOT = path.resolve(__dirname, '../../../..');
/** Where the "Try it" steps are: README.md once its "Try it" section carries them, else docs/try-it.md. */
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
 * The "Try it" steps marked `<!-- try-it: name -->` … `<!-- /try-it -->`, from
 * the first of README.md and docs/try-it.md that has them, with the file's name.
 * Line breaks and Markdown emphasis are folded away, so a test can look for a
 * sentence however the file wraps it.
 */
export function tryItSection(name: string): { source: string; text: string; commands: string[] } {
  for (const source of SOURCES) {
    const section = markedSection(fs.readFileSync(path.join(REPO_ROOT, source), 'utf8'), name);
    if (section === undefined) continue;
    const commands = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].flatMap(block =>
      block[1].split('\n').map(line => line.trim()).filter(Boolean),
    );
    const text = section.replace(/[*`]/g, '').replace(/\s+/g, ' ');
    return { source, text, commands };
  }
  throw new Error(`No "Try it" section ${name} in ${SOURCES.join(' or ')}`);
}

/** The repository root, where the steps' commands run. */
export const TRY_IT_DIR = REPO_ROOT;
