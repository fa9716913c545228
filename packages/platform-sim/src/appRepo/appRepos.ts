import path from 'node:path';
import { FileCommitter, FileWrite } from '../git/fileCommitter';
import { GitRepo } from '../git/gitRepo';
import { Mutex } from '../git/mutex';
import { StageKey, stageName } from '../platform/layout';
import {
  baseDir,
  baseFiles,
  overlayFile,
  overlayKustomization,
  overlayServices,
} from './appRepoFiles';

interface AppRepo {
  git: GitRepo;
  committer: FileCommitter;
  /** main's commit ('' while the repository is empty). */
  head: string;
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
        files.push(...baseFiles(product.team, service, this.canarySteps));
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
    for (const [stage, services] of written) repo.overlays.set(stage, services);
  }

  private async open(key: Pick<StageKey, 'team' | 'product'>) {
    const id = repoId(key);
    let repo = this.repos.get(id);
    if (!repo) {
      const git = await GitRepo.open(this.gitDir(key));
      repo = {
        git,
        committer: new FileCommitter(git, new Mutex()),
        head: (await git.readRef('refs/heads/main')) ?? '',
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
