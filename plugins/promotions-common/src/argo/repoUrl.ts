/**
 * A GitHub repository as the configuration names it (`promotions.platformRepo`).
 *
 * @public
 */
export interface GitRepoRef {
  /** `github.com`, a GitHub Enterprise host, or `host:port`. */
  host: string;
  owner: string;
  repo: string;
}

interface ParsedRepoUrl {
  hostname: string;
  segments: string[];
}

const HAS_SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;
/** scp-like syntax that git and Argo CD accept: `git@github.com:owner/repo.git`. */
const SCP_LIKE = /^(?:[^@\s/]+@)?([^:\s/]+):(.+)$/;

/** Host and path segments of a git remote URL (https, http, ssh, git, or scp-like), or undefined. */
function parseRepoUrl(repoURL: string): ParsedRepoUrl | undefined {
  const trimmed = repoURL.trim();
  let hostname: string;
  let pathname: string;
  const scp = HAS_SCHEME.test(trimmed) ? null : SCP_LIKE.exec(trimmed);
  if (scp) {
    [, hostname, pathname] = scp;
  } else {
    try {
      const url = new URL(trimmed);
      hostname = url.hostname;
      pathname = url.pathname;
    } catch {
      return undefined;
    }
  }
  const segments = pathname.split('/').filter(Boolean);
  if (!hostname || segments.length === 0) return undefined;
  segments[segments.length - 1] = segments[segments.length - 1].replace(/\.git$/i, '');
  return { hostname: hostname.toLowerCase(), segments };
}

/** The host name without a port: `127.0.0.1:7070` → `127.0.0.1`. */
function hostnameOf(host: string): string {
  try {
    return new URL(`https://${host}`).hostname.toLowerCase();
  } catch {
    return host.toLowerCase();
  }
}

/**
 * Whether an Argo CD `repoURL` names the given GitHub repository. The forms git accepts are all
 * the same repository (`https://github.com/Org/Repo.git`, `git@github.com:org/repo`,
 * `ssh://git@github.com:22/org/repo`): host names are compared without port and case, owner
 * and repository case-insensitively (as GitHub treats them) as the last two path segments,
 * without `.git` — so a path prefix before them (a GitHub Enterprise behind a context path) is
 * allowed.
 *
 * @public
 */
export function isRepoUrlOf(repoURL: string | undefined, repo: GitRepoRef): boolean {
  if (!repoURL) return false;
  const parsed = parseRepoUrl(repoURL);
  if (!parsed || parsed.segments.length < 2) return false;
  const [owner, name] = parsed.segments.slice(-2).map(s => s.toLowerCase());
  return (
    parsed.hostname === hostnameOf(repo.host) &&
    owner === repo.owner.toLowerCase() &&
    name === repo.repo.toLowerCase()
  );
}
