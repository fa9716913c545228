import fs from 'node:fs';
import path from 'node:path';
import { FileCommitter } from '../git/fileCommitter';
import { GitRepo } from '../git/gitRepo';
import { Mutex } from '../git/mutex';
import type { OtherRepository } from '../github/otherRepositoryContexts';

/** Who writes the code: the Product's developers, played by the simulator. */
const DEVELOPER_IDENTITY = {
  name: 'Product developer (platform-sim)',
  email: 'developer@platform-sim.invalid',
};

/** What a change to a Service's code says, in turn, so a "what changed" list reads like one. */
const CHANGE_SUBJECTS = [
  'faster start-up',
  'retry the upstream call once',
  'fix a rounding error',
  'log the request id',
  'tidy the error page',
  'cache a slow lookup',
  'update the base image',
  'validate the input',
];

/**
 * The Products' source repositories `<owner>/<product>`, the code CI builds
 * (the SLSA provenance's source): real bare git repositories in the data dir,
 * served by the simulated GitHub. Every build is of a new commit, so the
 * commits between two digests of a Service are the ones GitHub's compare
 * lists between their source commits.
 */
export class SourceRepos {
  private readonly repos = new Map<string, OtherRepository>();
  private readonly opening = new Map<string, Promise<OtherRepository>>();
  private changes = 0;

  constructor(
    private readonly dir: string,
    private readonly owner: string,
  ) {}

  /** Opens the repositories an earlier run of the simulator left in the data dir. */
  async openExisting(): Promise<void> {
    const ownerDir = path.join(this.dir, this.owner);
    if (!fs.existsSync(ownerDir)) return;
    for (const entry of fs.readdirSync(ownerDir)) {
      if (entry.endsWith('.git')) await this.open(entry.slice(0, -'.git'.length));
    }
  }

  /** A Product's source repository by its GitHub owner and name (case-insensitive), once a build made it. */
  find(owner: string, name: string): OtherRepository | undefined {
    if (owner.toLowerCase() !== this.owner.toLowerCase()) return undefined;
    return this.repos.get(name.toLowerCase());
  }

  /** Commits a change to a Service's code on the Product's main, as a developer does before CI builds; answers the commit. */
  async change(product: string, service: string): Promise<string> {
    const repo = await this.open(product);
    this.changes += 1;
    const subject = CHANGE_SUBJECTS[(this.changes - 1) % CHANGE_SUBJECTS.length];
    const result = await repo.committer.commitFiles({
      branch: 'main',
      allowNewBranch: true,
      files: [{ path: `services/${service}/CHANGELOG`, content: `${this.changes}: ${subject}\n` }],
      message: `${service}: ${subject}`,
      author: { ...DEVELOPER_IDENTITY, date: new Date().toISOString() },
    });
    if (result.kind !== 'committed') throw new Error(`could not commit to ${this.owner}/${product}: ${result.kind}`);
    return result.commit;
  }

  /** The bare git directory of a Product's source repository. */
  gitDir(product: string): string {
    return path.join(this.dir, this.owner, `${product}.git`);
  }

  private open(product: string): Promise<OtherRepository> {
    const key = product.toLowerCase();
    let repo = this.opening.get(key);
    if (!repo) {
      const gitDir = this.gitDir(product);
      repo = GitRepo.open(gitDir).then(git => {
        const lock = new Mutex();
        const handle = {
          owner: this.owner,
          name: product,
          gitDir,
          git,
          lock,
          committer: new FileCommitter(git, lock),
          description: `Source of ${product}: the code CI builds and the SLSA provenance names (simulated)`,
        };
        this.repos.set(key, handle);
        return handle;
      });
      this.opening.set(key, repo);
    }
    return repo;
  }
}
