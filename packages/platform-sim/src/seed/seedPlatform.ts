import { FileCommitter, FileWrite } from '../git/fileCommitter';
import { GitRepo } from '../git/gitRepo';
import { UserDirectory } from '../identity/users';
import { environmentPath, releasePath, STAGES } from '../platform/layout';
import { renderEnvironment } from '../platform/environmentFile';
import { renderRelease, setReleaseDigest } from '../platform/releaseFile';
import {
  declaredServices,
  SEED_INITIAL_COMMIT,
  SeedCommit,
  SeedProduct,
  seedDigest,
  seedDateAsOf,
  seedStory,
} from './seedData';

/**
 * Writes the seed's products (with `demoProducts`, the demo's as well) as a
 * real history on `main`: an initial layout commit and then CI pushes and
 * promotions by different authors, dated so that the story ends a day before `now`.
 * Does nothing when `main` already exists (a reused data dir).
 */
export async function seedPlatform(
  repo: GitRepo,
  committer: FileCommitter,
  users: UserDirectory,
  options: { demoProducts?: boolean; now?: Date; digestOf?: SeedDigestSource } = {},
): Promise<void> {
  if (await repo.readRef('refs/heads/main')) return;
  const story = seedStory(options.demoProducts ?? false);
  await writeStory(committer, users, {
    ...story,
    initial: SEED_INITIAL_COMMIT,
    now: options.now ?? new Date(),
    digestOf: options.digestOf,
  });
}

/** The digest of a seeded version of a Service: seedDigest's, or a real build's (SimOptions.seedBuilds). */
export type SeedDigestSource = (team: string, product: string, service: string, version: number) => Promise<string>;

const seedDigests: SeedDigestSource = async (team, product, service, version) => seedDigest(team, product, service, version);

/**
 * Writes Products and their history on `main`: one commit laying out every
 * stage at v1, then one commit per step of the story, dated as the seed's
 * (the story ending a day before `now`).
 */
export async function writeStory(
  committer: FileCommitter,
  users: UserDirectory,
  story: {
    products: SeedProduct[];
    initial: Omit<SeedCommit, 'bumps'>;
    history: SeedCommit[];
    now: Date;
    digestOf?: SeedDigestSource;
  },
): Promise<void> {
  const digestOf = story.digestOf ?? seedDigests;
  const dated = (date: string) => seedDateAsOf(date, story.now);
  const files: FileWrite[] = [];
  const releases = new Map<string, string>();
  for (const product of story.products) {
    for (const stage of STAGES) {
      const key = { team: product.team, product: product.product, stage };
      const services = declaredServices(product, stage);
      files.push({
        path: environmentPath(key),
        content: renderEnvironment(key, services),
      });
      const digests: Record<string, string> = {};
      for (const service of services) {
        digests[service] = await digestOf(product.team, product.product, service, 1);
      }
      const text = renderRelease(key, digests);
      releases.set(releasePath(key), text);
      files.push({ path: releasePath(key), content: text });
    }
  }
  const initialAuthor = identity(
    users,
    story.initial.authorLogin,
    dated(story.initial.date),
  );
  const initial = await committer.commitFiles({
    branch: 'main',
    allowNewBranch: true,
    files,
    message: story.initial.message,
    author: initialAuthor,
  });
  if (initial.kind !== 'committed')
    throw new Error(`seed commit failed: ${initial.kind}`);

  for (const step of story.history) {
    const changed = new Map<string, string>();
    for (const bump of step.bumps) {
      const filePath = releasePath(bump);
      const before = changed.get(filePath) ?? releases.get(filePath);
      if (before === undefined)
        throw new Error(`seed bumps a missing release ${filePath}`);
      const digest = await digestOf(
        bump.team,
        bump.product,
        bump.service,
        bump.version,
      );
      changed.set(filePath, setReleaseDigest(before, bump.service, digest));
    }
    for (const [filePath, text] of changed) releases.set(filePath, text);
    const result = await committer.commitFiles({
      branch: 'main',
      files: [...changed].map(([filePath, content]) => ({
        path: filePath,
        content,
      })),
      message: step.message,
      author: identity(users, step.authorLogin, dated(step.date)),
    });
    if (result.kind !== 'committed')
      throw new Error(`seed commit failed: ${result.kind}`);
  }
}

function identity(users: UserDirectory, login: string, date: string) {
  const user = users.getOrCreate(login);
  return { name: user.name, email: user.email, date };
}
