import { ImageNaming, imageRepository } from '../seed/digests';
import path from 'node:path';
import { FileCommitter, FileWrite } from '../git/fileCommitter';
import { GitRepo } from '../git/gitRepo';
import { Mutex } from '../git/mutex';
import type { OtherRepository } from '../github/otherRepositoryContexts';
import { StageKey, stageName } from '../platform/layout';
import {
  baseDir,
  baseFiles,
  overlayFile,
  overlayKustomization,
  overlayServices,
} from './appRepoFiles';

interface AppRepo {
  key: Pick<StageKey, 'team' | 'product'>;
  git: GitRepo;
  /** The repository's write lock; `committer` takes it. */
  lock: Mutex;
  committer: FileCommitter;
  /** main's commit ('' while the repository is empty). */
  head: string;
  /** git.version when `head` and `overlays` were last known right. */
  seenVersion: number;
  /** stage → services its overlay includes (undefined: no overlay), as last read or written */
  overlays: Map<string, string[] | undefined>;
}

/** Who writes the app repos: the Product teams, played by the simulator. */
const APP_TEAM_IDENTITY = {
  name: 'Product team (platform-sim)',
  email: 'product-team@platform-sim.invalid',
};

/**
 * The Products' app repos: real bare git repositories `<team>/<product>-app`
 * in the data dir, holding the workload shape (`k8s/base/<service>`) and one
 * overlay per stage (`k8s/overlays/<stage>`). Versions are never in them.
 */
export class AppRepos {
  private readonly repos = new Map<string, AppRepo>();

  constructor(
    private readonly dir: string,
    private readonly canarySteps: unknown[],
    private readonly imageNaming: ImageNaming,
  ) {}

  /** The repository name of a Product's app repo. */
  static repoName(product: string): string {
    return `${product}-app`;
  }

  /** The bare git directory of a Product's app repo. */
  gitDir(key: Pick<StageKey, 'team' | 'product'>): string {
    return path.join(
      this.dir,
      key.team,
      `${AppRepos.repoName(key.product)}.git`,
    );
  }

  /** A Product's app repo by its GitHub owner and name (case-insensitive), once it exists. */
  find(owner: string, name: string): OtherRepository | undefined {
    const repo = [...this.repos.values()].find(
      candidate =>
        candidate.key.team.toLowerCase() === owner.toLowerCase() &&
        AppRepos.repoName(candidate.key.product).toLowerCase() === name.toLowerCase(),
    );
    if (!repo) return undefined;
    const { team, product } = repo.key;
    return {
      owner: team,
      name: AppRepos.repoName(product),
      gitDir: this.gitDir(repo.key),
      git: repo.git,
      lock: repo.lock,
      committer: repo.committer,
      description: `App repo of ${team}/${product}: the workload shape (k8s/base, k8s/overlays/<stage>), never a version (simulated)`,
    };
  }

  /** Picks up what others (the GitHub API) wrote to the app repos since the last look. */
  async refresh(): Promise<void> {
    for (const repo of this.repos.values()) {
      if (repo.git.version === repo.seenVersion) continue;
      repo.seenVersion = repo.git.version;
      repo.head = (await repo.git.readRef('refs/heads/main')) ?? '';
      repo.overlays.clear();
    }
  }

  /** main's commit of a Product's app repo, '' before it exists. */
  head(key: Pick<StageKey, 'team' | 'product'>): string {
    return this.repos.get(repoId(key))?.head ?? '';
  }

  /**
   * Makes each stage's overlay include exactly its `services` (each with a
   * base), in one commit to main when any does not yet (the team adding what
   * its stages run). `date` dates such a commit.
   */
  async ensureOverlays(
    product: Pick<StageKey, 'team' | 'product'>,
    overlays: Array<{ stage: string; services: string[] }>,
    date: string,
  ): Promise<void> {
    const repo = await this.open(product);
    const files: FileWrite[] = [];
    const written = new Map<string, string[]>();
    const basesWritten = new Set<string>();
    for (const overlay of overlays) {
      const wanted = [...overlay.services].sort();
      const current = await this.overlayOf(repo, overlay.stage);
      if (current && sameList(current, wanted)) continue;
      for (const service of wanted) {
        if (basesWritten.has(service)) continue;
        basesWritten.add(service);
        if (repo.head && (await repo.git.entryAt(repo.head, baseDir(service))))
          continue;
        files.push(
          ...baseFiles(imageRepository(this.imageNaming, { ...product, service }), service, this.canarySteps),
        );
      }
      const key = { ...product, stage: overlay.stage };
      files.push({
        path: overlayFile(overlay.stage),
        content: overlayKustomization(stageName(key), wanted),
      });
      written.set(overlay.stage, wanted);
    }
    if (files.length === 0) return;
    const stages = [...written.keys()];
    const result = await repo.committer.commitFiles({
      branch: 'main',
      allowNewBranch: true,
      files,
      message: `k8s: overlays for ${stages.join(', ')}`,
      author: { ...APP_TEAM_IDENTITY, date },
    });
    if (result.kind !== 'committed')
      throw new Error(
        `could not commit to the app repo of ${product.team}/${product.product}: ${result.kind}`,
      );
    repo.head = result.commit;
    repo.seenVersion = repo.git.version;
    for (const [stage, services] of written) repo.overlays.set(stage, services);
  }

  private async open(key: Pick<StageKey, 'team' | 'product'>) {
    const id = repoId(key);
    let repo = this.repos.get(id);
    if (!repo) {
      const git = await GitRepo.open(this.gitDir(key));
      const lock = new Mutex();
      repo = {
        key: { team: key.team, product: key.product },
        git,
        lock,
        committer: new FileCommitter(git, lock),
        head: (await git.readRef('refs/heads/main')) ?? '',
        seenVersion: git.version,
        overlays: new Map(),
      };
      this.repos.set(id, repo);
    }
    return repo;
  }

  /** An overlay's services, read from git once (a reused data dir) and then remembered. */
  private async overlayOf(
    repo: AppRepo,
    stage: string,
  ): Promise<string[] | undefined> {
    if (repo.overlays.has(stage)) return repo.overlays.get(stage);
    const file = repo.head
      ? await repo.git.readFile(repo.head, overlayFile(stage))
      : null;
    const services = file
      ? overlayServices(file.content.toString('utf8'))
      : undefined;
    repo.overlays.set(stage, services);
    return services;
  }
}

function repoId(key: Pick<StageKey, 'team' | 'product'>): string {
  return `${key.team}/${key.product}`;
}

function sameList(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((item, i) => item === b[i]);
}
