import { FileCommitter } from '../git/fileCommitter';
import { GitRepo } from '../git/gitRepo';
import { Mutex } from '../git/mutex';
import { UserDirectory } from '../identity/users';
import { parseEnvironment } from '../platform/environmentFile';
import { environmentPath, releasePath, stageName } from '../platform/layout';
import { parseRelease, setReleaseDigest } from '../platform/releaseFile';
import { BuildFlags } from '../registry/publishBuild';
import { isDigest, randomDigest } from '../seed/digests';
import { isStall, Stall, STALLS } from '../world/stalls/stall';
import { CiPushRequest, CiPushResult, ControlError } from './simControl';

const NAME = /^[a-z0-9][a-z0-9._-]*$/;

const FLAGS = ['unsigned', 'wrongSigner', 'noProvenance', 'tampered', 'notPushed', 'foreignBuilder', 'foreignSource'] as const;

/** The supply-chain flags a push asks for (those set to true). */
function flagsOf(request: CiPushRequest): BuildFlags {
  return Object.fromEntries(FLAGS.filter(flag => request[flag] === true).map(flag => [flag, true]));
}

type PublishBuild = (build: Pick<CiPushRequest, 'team' | 'product' | 'service'>, flags: BuildFlags) => Promise<string>;

/**
 * Publishes the build before the Release is read, as CI pushes before it
 * promotes (a refused write leaves an image behind). A registry that fails is
 * the push step failing: 502, with what it said.
 */
async function publish(publishBuild: PublishBuild, request: CiPushRequest, flags: BuildFlags): Promise<string> {
  try {
    return await publishBuild({ team: request.team, product: request.product, service: request.service }, flags);
  } catch (error) {
    throw new ControlError(502, `the build could not be published: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/**
 * "Play CI": a new build of a service lands in the dev Release on main as a
 * commit by ci-bot, changing only that service's digest line. With a registry
 * (`publishBuild`), a push without a digest first publishes the build there,
 * signed and attested, or broken as its flags say.
 */
export async function ciPush(
  deps: {
    repo: GitRepo;
    lock: Mutex;
    committer: FileCommitter;
    users: UserDirectory;
    markBad: (digest: string) => void;
    markStalled: (digest: string, stall: Stall) => void;
    publishBuild?: PublishBuild;
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
  if (request.stall !== undefined && !isStall(request.stall)) {
    throw new ControlError(400, `stall must be one of ${STALLS.join(', ')}, got ${JSON.stringify(request.stall)}`);
  }
  const flags = flagsOf(request);
  const flagged = Object.keys(flags);
  if (flagged.length > 0 && !deps.publishBuild) {
    throw new ControlError(400, `the flags ${flagged.join(', ')} need a registry: start the simulator with one (--registry-url)`);
  }
  if (flagged.length > 0 && request.digest !== undefined) {
    throw new ControlError(400, `the flags ${flagged.join(', ')} describe a build, and a push with a digest builds nothing`);
  }
  const digest = request.digest ?? (deps.publishBuild ? await publish(deps.publishBuild, request, flags) : randomDigest());
  if (request.bad) deps.markBad(digest);
  if (request.stall) deps.markStalled(digest, request.stall);

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
