import { CommitInfo, FileChange, GitIdentity } from '../git/types';
import { SimUser } from '../identity/users';
import { GithubContext, repoApiUrl, repoHtmlUrl } from './context';

/** GitHub JSON shapes built from git objects and store records. Only fields clients read, named as on GitHub. */

export function userJson(
  ctx: GithubContext,
  user: SimUser,
): Record<string, unknown> {
  return {
    login: user.login,
    id: user.id,
    node_id: nodeId('U', user.id),
    avatar_url: `${ctx.urls.web}/avatars/${user.login}`,
    url: `${ctx.urls.github}/users/${user.login}`,
    html_url: `${ctx.urls.web}/${user.login}`,
    type: user.type,
    site_admin: false,
  };
}

export function userByLogin(ctx: GithubContext, login: string) {
  return userJson(ctx, ctx.users.getOrCreate(login));
}

export function ownerJson(ctx: GithubContext): Record<string, unknown> {
  return {
    login: ctx.owner,
    id: 1,
    node_id: nodeId('O', 1),
    avatar_url: `${ctx.urls.web}/avatars/${ctx.owner}`,
    url: `${ctx.urls.github}/users/${ctx.owner}`,
    html_url: `${ctx.urls.web}/${ctx.owner}`,
    type: 'Organization',
    site_admin: false,
  };
}

export function repoJson(ctx: GithubContext): Record<string, unknown> {
  const api = repoApiUrl(ctx);
  return {
    id: ctx.repoId,
    node_id: nodeId('R', ctx.repoId),
    name: ctx.repoName,
    full_name: `${ctx.owner}/${ctx.repoName}`,
    private: true,
    visibility: 'private',
    owner: ownerJson(ctx),
    html_url: repoHtmlUrl(ctx),
    description: ctx.description,
    fork: false,
    url: api,
    git_url: `${repoHtmlUrl(ctx)}.git`,
    clone_url: `${repoHtmlUrl(ctx)}.git`,
    default_branch: 'main',
    archived: false,
    disabled: false,
    allow_merge_commit: true,
    allow_squash_merge: true,
    allow_rebase_merge: true,
    delete_branch_on_merge: ctx.deleteBranchOnMerge ?? false,
    permissions: {
      admin: false,
      maintain: false,
      push: true,
      triage: true,
      pull: true,
    },
    pulls_url: `${api}/pulls{/number}`,
    commits_url: `${api}/commits{/sha}`,
    contents_url: `${api}/contents/{+path}`,
  };
}

function identityJson(identity: GitIdentity) {
  return {
    name: identity.name,
    email: identity.email,
    date: toGithubDate(identity.date),
  };
}

/** The git data API's commit (GET/POST /git/commits). */
export function gitCommitJson(
  ctx: GithubContext,
  commit: CommitInfo,
): Record<string, unknown> {
  const api = repoApiUrl(ctx);
  return {
    sha: commit.sha,
    node_id: nodeId('C', commit.sha),
    url: `${api}/git/commits/${commit.sha}`,
    html_url: `${repoHtmlUrl(ctx)}/commit/${commit.sha}`,
    author: identityJson(commit.author),
    committer: identityJson(commit.committer),
    message: commit.message,
    tree: { sha: commit.tree, url: `${api}/git/trees/${commit.tree}` },
    parents: commit.parents.map(sha => ({
      sha,
      url: `${api}/git/commits/${sha}`,
      html_url: `${repoHtmlUrl(ctx)}/commit/${sha}`,
    })),
    verification: {
      verified: false,
      reason: 'unsigned',
      signature: null,
      payload: null,
      verified_at: null,
    },
  };
}

/** The commits API's commit (GET /commits, /commits/{ref}); author/committer users when the email maps to a login. */
export function restCommitJson(
  ctx: GithubContext,
  commit: CommitInfo,
  files?: FileChange[],
  ref?: string,
): Record<string, unknown> {
  const api = repoApiUrl(ctx);
  const author = ctx.users.byEmail(commit.author.email);
  const committer = ctx.users.byEmail(commit.committer.email);
  const json: Record<string, unknown> = {
    sha: commit.sha,
    node_id: nodeId('C', commit.sha),
    commit: {
      author: identityJson(commit.author),
      committer: identityJson(commit.committer),
      message: commit.message,
      tree: { sha: commit.tree, url: `${api}/git/trees/${commit.tree}` },
      url: `${api}/git/commits/${commit.sha}`,
      comment_count: 0,
      verification: {
        verified: false,
        reason: 'unsigned',
        signature: null,
        payload: null,
        verified_at: null,
      },
    },
    url: `${api}/commits/${commit.sha}`,
    html_url: `${repoHtmlUrl(ctx)}/commit/${commit.sha}`,
    comments_url: `${api}/commits/${commit.sha}/comments`,
    author: author ? userJson(ctx, author) : null,
    committer: committer ? userJson(ctx, committer) : null,
    parents: commit.parents.map(sha => ({
      sha,
      url: `${api}/commits/${sha}`,
      html_url: `${repoHtmlUrl(ctx)}/commit/${sha}`,
    })),
  };
  if (files) {
    const additions = files.reduce((sum, file) => sum + file.additions, 0);
    const deletions = files.reduce((sum, file) => sum + file.deletions, 0);
    json.stats = { total: additions + deletions, additions, deletions };
    json.files = files.map(file => fileJson(ctx, file, ref ?? commit.sha));
  }
  return json;
}

/** One entry of `files` in commits, compares and pull request files. */
export function fileJson(
  ctx: GithubContext,
  file: FileChange,
  ref: string,
): Record<string, unknown> {
  const json: Record<string, unknown> = {
    sha: file.sha,
    filename: file.filename,
    status: file.status,
    additions: file.additions,
    deletions: file.deletions,
    changes: file.additions + file.deletions,
    blob_url: `${repoHtmlUrl(ctx)}/blob/${ref}/${file.filename}`,
    raw_url: `${repoHtmlUrl(ctx)}/raw/${ref}/${file.filename}`,
    contents_url: `${repoApiUrl(ctx)}/contents/${file.filename}?ref=${ref}`,
  };
  if (file.patch !== undefined) json.patch = file.patch;
  return json;
}

export function refJson(
  ctx: GithubContext,
  ref: string,
  sha: string,
  type = 'commit',
): Record<string, unknown> {
  const api = repoApiUrl(ctx);
  return {
    ref,
    node_id: nodeId('REF', ref),
    url: `${api}/git/${ref}`,
    object: { sha, type, url: `${api}/git/${type}s/${sha}` },
  };
}

export function labelJson(
  ctx: GithubContext,
  label: {
    id: number;
    name: string;
    color: string;
    description: string | null;
  },
) {
  return {
    id: label.id,
    node_id: nodeId('LA', label.id),
    url: `${repoApiUrl(ctx)}/labels/${encodeURIComponent(label.name)}`,
    name: label.name,
    color: label.color,
    default: false,
    description: label.description,
  };
}

/** Git's dates come with an offset; GitHub answers in UTC with a Z. */
export function toGithubDate(date: string): string {
  const parsed = Date.parse(date);
  return Number.isNaN(parsed)
    ? date
    : new Date(parsed).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export function nowIso(): string {
  return new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export function nodeId(kind: string, id: string | number): string {
  return Buffer.from(`${kind}_${id}`).toString('base64').replace(/=+$/, '');
}
