import { FileCommitter } from '../git/fileCommitter';
import { GitRepo } from '../git/gitRepo';
import { Mutex } from '../git/mutex';
import { UserDirectory } from '../identity/users';
import { parseEnvironment } from '../platform/environmentFile';
import { environmentPath, releasePath, stageName } from '../platform/layout';
import { parseRelease, setReleaseDigest } from '../platform/releaseFile';
import { isDigest, randomDigest } from '../seed/digests';
import { CiPushRequest, CiPushResult, ControlError } from './simControl';

const NAME = /^[a-z0-9][a-z0-9._-]*$/;

/**
 * "Play CI": a new build of a service lands in the dev Release on main as a
 * commit by ci-bot, changing only that service's digest line.
 */
export async function ciPush(
  deps: {
    repo: GitRepo;
    lock: Mutex;
    committer: FileCommitter;
    users: UserDirectory;
    markBad: (digest: string) => void;
  },
  request: CiPushRequest,
): Promise<CiPushResult> {
  for (const field of ['team', 'product', 'service'] as const) {
    if (typeof request[field] !== 'string' || !NAME.test(request[field])) {
      throw new ControlError(
        400,
        `${field} must be a lowercase name, got ${JSON.stringify(request[field])}`,
      );
    }
  }
  if (request.digest !== undefined && !isDigest(request.digest)) {
    throw new ControlError(
      400,
      'digest must be sha256: followed by 64 lowercase hex characters',
    );
  }
  const digest = request.digest ?? randomDigest();
  if (request.bad) deps.markBad(digest);

  const key = { team: request.team, product: request.product, stage: 'dev' };
  const filePath = releasePath(key);
  return deps.lock.run(async () => {
    const head = await deps.repo.readRef('refs/heads/main');
    if (!head) throw new ControlError(409, 'main does not exist yet');
    const file = await deps.repo.readFile(head, filePath);
    if (!file)
      throw new ControlError(
        404,
        `no dev Release for ${request.team}/${request.product} (${filePath})`,
      );
    const text = file.content.toString('utf8');
    if (!(request.service in parseRelease(text).services)) {
      const environment = await deps.repo.readFile(head, environmentPath(key));
      const declared = environment
        ? parseEnvironment(environment.content.toString('utf8')).services
        : [];
      if (!declared.includes(request.service)) {
        throw new ControlError(
          422,
          `service ${request.service} is not declared in ${stageName(key)}'s Environment`,
        );
      }
    }
    const bot = deps.users.getOrCreate('ci-bot');
    const result = await deps.committer.commitFilesLocked({
      branch: 'main',
      files: [
        {
          path: filePath,
          content: setReleaseDigest(text, request.service, digest),
        },
      ],
      message: `ci: ${request.team}/${request.product} ${request.service} ${digest.slice(7, 19)} to dev`,
      author: {
        name: bot.name,
        email: bot.email,
        date: new Date().toISOString(),
      },
      expectedHead: head,
    });
    if (result.kind !== 'committed')
      throw new ControlError(
        409,
        `main moved during the push (${result.kind})`,
      );
    return { digest, commit: result.commit };
  });
}
