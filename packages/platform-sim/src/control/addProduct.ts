import { FileCommitter } from '../git/fileCommitter';
import { GitRepo } from '../git/gitRepo';
import { UserDirectory } from '../identity/users';
import { releasePath } from '../platform/layout';
import { productStoryLike } from '../seed/seedData';
import { writeStory } from '../seed/seedPlatform';
import { AddedProduct, AddProductRequest, ControlError } from './simControl';

const NAME = /^[a-z0-9][a-z0-9._-]*$/;

/**
 * Adds a Product to main as the seed wrote another (`like`): its layout
 * commit and its history, under the new name. Its Applications then run
 * what main says, as the seeded ones do at start.
 */
export async function addProduct(
  deps: {
    repo: GitRepo;
    committer: FileCommitter;
    users: UserDirectory;
    /** Runs the writes, then starts the added Applications as running (Reconciler.addRunning). */
    addRunning: (write: () => Promise<void>) => Promise<void>;
  },
  request: AddProductRequest,
): Promise<AddedProduct> {
  if (typeof request.product !== 'string' || !NAME.test(request.product)) {
    throw new ControlError(400, `product must be a lowercase name, got ${JSON.stringify(request.product)}`);
  }
  const story = productStoryLike(request.like, request.product);
  if (!story) {
    throw new ControlError(400, `like must name a seeded Product (team/product), got ${JSON.stringify(request.like)}`);
  }
  const head = await deps.repo.readRef('refs/heads/main');
  if (!head) throw new ControlError(409, 'main does not exist yet');
  const [{ team, product }] = story.products;
  if (await deps.repo.readFile(head, releasePath({ team, product, stage: 'dev' }))) {
    throw new ControlError(409, `${team}/${product} exists already`);
  }
  await deps.addRunning(() => writeStory(deps.committer, deps.users, { ...story, now: new Date() }));
  return { team, product };
}
