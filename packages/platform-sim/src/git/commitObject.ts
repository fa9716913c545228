import { CommitInfo, GitIdentity } from './types';

const ISO_DATE = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(Z|[+-]\d\d:?\d\d)$/;

/**
 * A commit object's bytes, as `git commit-tree` writes them; undefined when a
 * date is not ISO 8601 with a zone (the caller lets git parse it).
 */
export function formatCommit(commit: {
  tree: string;
  parents: string[];
  message: string;
  author: GitIdentity;
  committer: GitIdentity;
}): Buffer | undefined {
  const author = identityLine(commit.author);
  const committer = identityLine(commit.committer);
  if (author === undefined || committer === undefined) return undefined;
  const lines = [
    `tree ${commit.tree}`,
    ...commit.parents.map(parent => `parent ${parent}`),
    `author ${author}`,
    `committer ${committer}`,
  ];
  return Buffer.from(`${lines.join('\n')}\n\n${commit.message}`);
}

function identityLine(identity: GitIdentity): string | undefined {
  const zone = ISO_DATE.exec(identity.date)?.[1];
  const name = withoutCrud(identity.name);
  // Git refuses an empty name: left to git, which says so.
  if (zone === undefined || name === '') return undefined;
  const seconds = Math.floor(Date.parse(identity.date) / 1000);
  const offset = zone === 'Z' ? '+0000' : zone.replace(':', '');
  return `${name} <${withoutCrud(identity.email)}> ${seconds} ${offset}`;
}

// Git drops these from either end of a name or email, and `<`, `>` and line breaks anywhere.
const CRUD = /^[\x00-\x20.,:;<>"\\']+|[\x00-\x20.,:;<>"\\']+$/g;

function withoutCrud(value: string): string {
  return value.replace(/[<>\n]/g, '').replace(CRUD, '');
}

/** A commit object read back as `git log --format` gives it: dates strict ISO 8601 in their own zone. */
export function parseCommitObject(sha: string, content: Buffer): CommitInfo {
  const text = content.toString('utf8');
  const headerEnd = text.indexOf('\n\n');
  const headers = (headerEnd < 0 ? text : text.slice(0, headerEnd)).split('\n');
  const values = (key: string) =>
    headers.filter(line => line.startsWith(`${key} `)).map(line => line.slice(key.length + 1));
  return {
    sha,
    tree: values('tree')[0],
    parents: values('parent'),
    author: parseIdentity(values('author')[0]),
    committer: parseIdentity(values('committer')[0]),
    message: headerEnd < 0 ? '' : text.slice(headerEnd + 2).replace(/\n+$/, ''),
  };
}

function parseIdentity(line: string): GitIdentity {
  const [, name, email, seconds, sign, hours, minutes] = /^(.*) <(.*)> (\d+) ([+-])(\d\d)(\d\d)$/.exec(line)!;
  const offsetMinutes = (sign === '-' ? -1 : 1) * (Number(hours) * 60 + Number(minutes));
  const local = new Date((Number(seconds) + offsetMinutes * 60) * 1000).toISOString().slice(0, 19);
  return { name, email, date: `${local}${sign}${hours}:${minutes}` };
}
