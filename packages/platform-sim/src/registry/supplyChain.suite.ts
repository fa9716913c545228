import { execFileSync } from 'node:child_process';
import { fileTestSim, getJson, postJson, startTestSim, stopTestSim } from '../__testUtils__/testSim';
import { SignedReferrer, signedReferrers } from '../__testUtils__/signedReferrers';
import { parseRelease } from '../platform/releaseFile';
import { releasePath } from '../platform/layout';
import { RunningSim } from '../sim';
import { COSIGN_SIGN_V1, SLSA_PROVENANCE_V1 } from './attestations';
import { RunningRegistry, dockerRegistryInstalled, startDockerRegistry } from './dockerRegistry';
import { OCI_MANIFEST } from './ociPush';
import { imageRepository } from './publishBuild';

const BUILD = { team: 'alpha', product: 'shop', service: 'storefront' };
const NAME = imageRepository(BUILD.team, BUILD.product, BUILD.service);

const git = (gitDir: string, ...args: string[]) => execFileSync('git', ['--git-dir', gitDir, ...args], { encoding: 'utf8' }).trim();

/** The digest of alpha/shop's storefront in the dev Release on main. */
const devDigest = (sim: RunningSim) =>
  parseRelease(git(sim.repoDir, 'show', `main:${releasePath({ ...BUILD, stage: 'dev' })}`)).services[BUILD.service];

/** CI pushes with a registry: real builds, signed and attested by the simulator's Sigstore (issue 25). */
export function supplyChainSuite(): void {
  describe('CI pushes and the supply chain', () => {
    const describeWithRegistry = dockerRegistryInstalled() ? describe : describe.skip;
    if (!dockerRegistryInstalled()) {
      // eslint-disable-next-line no-console
      console.warn('CI pushes to a registry skipped: Debian docker-registry is not installed (apt-get install -y docker-registry)');
    }

    describeWithRegistry('with a registry', () => {
      let registry: RunningRegistry;
      let sim: RunningSim;

      beforeAll(async () => {
        registry = await startDockerRegistry();
        sim = await startTestSim({ registry: { url: registry.url }, seedBuilds: true });
      });
      afterAll(async () => {
        await stopTestSim(sim);
        await registry?.stop();
      });

      const referrers = async (digest: string) =>
        signedReferrers(registry.url, NAME, digest, (await getJson(`${sim.url}/sigstore/trusted_root.json`)).body);

      it('serves the trusted root of the Sigstore that signs, and names it and the registry', async () => {
        const served = await getJson(`${sim.url}/sigstore/trusted_root.json`);
        expect(served.status).toBe(200);
        expect(served.body).toEqual(sim.registry!.trustedRoot);
        expect(served.body.mediaType).toBe('application/vnd.dev.sigstore.trustedroot+json;version=0.1');
        expect((await getJson(sim.url)).body).toEqual(
          expect.objectContaining({ registry: registry.url, trustedRoot: `${sim.url}/sigstore/trusted_root.json` }),
        );
      });

      it('publishes the seed as real builds: each seeded version once, signed and attested, named by every stage that runs it', async () => {
        const digestIn = (stage: string) =>
          parseRelease(git(sim.repoDir, 'show', `main:${releasePath({ ...BUILD, stage })}`)).services[BUILD.service];
        // The seed: storefront v2 in test, uat, staging and prod; v3 in dev.
        const v2 = digestIn('prod');
        expect(['test', 'uat', 'staging'].map(digestIn)).toEqual([v2, v2, v2]);
        expect(digestIn('dev')).not.toBe(v2);
        for (const digest of [v2, digestIn('dev')]) {
          expect((await fetch(`${registry.url}/v2/${NAME}/manifests/${digest}`, { method: 'HEAD', headers: { accept: OCI_MANIFEST } })).status).toBe(200);
          const bundles = (await referrers(digest)) as SignedReferrer[];
          expect(bundles.map(bundle => bundle.predicateType).sort()).toEqual([COSIGN_SIGN_V1, SLSA_PROVENANCE_V1]);
        }
      });

      it('publishes a signed, attested build of a new source commit and writes its digest into the dev Release', async () => {
        const { status, body } = await postJson(`${sim.url}/_sim/ci/push`, BUILD);

        expect(status).toBe(201);
        expect(devDigest(sim)).toBe(body.digest);
        expect((await fetch(`${registry.url}/v2/${NAME}/manifests/${body.digest}`, { method: 'HEAD', headers: { accept: OCI_MANIFEST } })).status).toBe(200);
        const bundles = (await referrers(body.digest)) as SignedReferrer[];
        expect(bundles.map(bundle => [bundle.predicateType, bundle.san]).sort()).toEqual([
          [COSIGN_SIGN_V1, `${sim.url}/refplat/shop/.github/workflows/build-sign.yml@refs/heads/main`],
          [SLSA_PROVENANCE_V1, `${sim.url}/refplat/shop/.github/workflows/provenance.yml@refs/heads/main`],
        ]);
        const provenance = bundles.find(bundle => bundle.predicateType === SLSA_PROVENANCE_V1)!;
        expect(provenance.predicate.buildDefinition.resolvedDependencies[0].digest.gitCommit).toBe(
          git(sim.sourceRepoDir(BUILD.product), 'rev-parse', 'main'),
        );

        // Every push is a new build, of a new commit of the source repository.
        const built = git(sim.sourceRepoDir(BUILD.product), 'rev-parse', 'main');
        const again = await postJson(`${sim.url}/_sim/ci/push`, BUILD);
        expect(again.body.digest).not.toBe(body.digest);
        expect(git(sim.sourceRepoDir(BUILD.product), 'rev-parse', 'main^')).toBe(built);
      });

      it('serves the source repository the provenance names: GitHub compares two builds, and the commit page opens', async () => {
        const base = git(sim.sourceRepoDir(BUILD.product), 'rev-parse', 'main');
        await postJson(`${sim.url}/_sim/ci/push`, BUILD);
        await postJson(`${sim.url}/_sim/ci/push`, BUILD);
        const head = git(sim.sourceRepoDir(BUILD.product), 'rev-parse', 'main');

        const compare = await getJson(`${sim.githubApiUrl}/repos/refplat/${BUILD.product}/compare/${base}...${head}`, sim.tokens.github);
        expect(compare.status).toBe(200);
        expect(compare.body.total_commits).toBe(2);
        expect(compare.body.commits[1].html_url).toBe(`${sim.url}/web/refplat/${BUILD.product}/commit/${head}`);
        const page = await fetch(`${sim.url}/refplat/${BUILD.product}/commit/${head}`);
        expect(page.status).toBe(200);
        expect(await page.text()).toContain(`services/${BUILD.service}/CHANGELOG`);
        expect((await fetch(`${sim.url}/refplat/${BUILD.product}/commit/${'0'.repeat(40)}`)).status).toBe(404);
      });

      it('breaks the supply chain as the flags say: not pushed, unsigned', async () => {
        const notPushed = await postJson(`${sim.url}/_sim/ci/push`, { ...BUILD, notPushed: true });
        expect(notPushed.status).toBe(201);
        expect(devDigest(sim)).toBe(notPushed.body.digest);
        expect((await fetch(`${registry.url}/v2/${NAME}/manifests/${notPushed.body.digest}`, { method: 'HEAD', headers: { accept: OCI_MANIFEST } })).status).toBe(404);

        const unsigned = await sim.control.ciPush({ ...BUILD, unsigned: true });
        expect(((await referrers(unsigned.digest)) as SignedReferrer[]).map(bundle => bundle.predicateType)).toEqual([SLSA_PROVENANCE_V1]);
      });

      it('refuses flags with a digest: a push with a digest builds nothing', async () => {
        const { status, body } = await postJson(`${sim.url}/_sim/ci/push`, { ...BUILD, digest: `sha256:${'e'.repeat(64)}`, tampered: true });
        expect(status).toBe(400);
        expect(body.error).toBe('the flags tampered describe a build, and a push with a digest builds nothing');
      });
    });

    describe('without a registry', () => {
      it('refuses supply-chain flags, naming what is missing, and serves no trusted root', async () => {
        const sim = await fileTestSim();
        const { status, body } = await postJson(`${sim.url}/_sim/ci/push`, { ...BUILD, wrongSigner: true, noProvenance: true });
        expect(status).toBe(400);
        expect(body.error).toBe('the flags wrongSigner, noProvenance need a registry: start the simulator with one (--registry-url)');
        expect((await getJson(`${sim.url}/sigstore/trusted_root.json`)).status).toBe(404);
        expect(sim.registry).toBeUndefined();
      });
    });
  });
}
