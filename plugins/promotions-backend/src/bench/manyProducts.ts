import { execFileSync } from 'child_process';

const STAGES = ['dev', 'test', 'uat', 'staging', 'prod'];
const SERVICES = ['web', 'api', 'worker'];

function digest(n: number): string {
  return `sha256:${n.toString(16).padStart(64, '0')}`;
}

/** Whether a Product is one addManyProducts added. */
export function isAddedProduct({ team, product }: { team: string; product: string }): boolean {
  return /^team\d+$/.test(team) && /^product\d+$/.test(product);
}

/**
 * Adds `count` Products (5 stages × 3 services each) to the simulator's
 * repository in one commit on main, with git fast-import: a platform repo
 * the size of a large company's, written in a second.
 */
export function addManyProducts(repoDir: string, count: number): void {
  const head = execFileSync('git', ['--git-dir', repoDir, 'rev-parse', 'main'], { encoding: 'utf8' }).trim();
  const chunks: string[] = [];
  const data = (text: string) => `data ${Buffer.byteLength(text)}\n${text}\n`;
  const message = `bench: ${count} products`;
  chunks.push(
    'commit refs/heads/main\n',
    'committer Bench <bench@refplat.example> 1796000000 +0000\n',
    data(message),
    `from ${head}\n`,
  );
  for (let p = 0; p < count; p++) {
    const team = `team${p % 50}`;
    const product = `product${p}`;
    for (const stage of STAGES) {
      const name = `${team}-${product}-${stage}`;
      const release = [
        'apiVersion: platform.refplat.org/v1beta1',
        'kind: Release',
        'metadata:',
        `  name: ${name}`,
        'spec:',
        `  environmentRef: ${name}`,
        '  services:',
        ...SERVICES.flatMap((service, s) => [`    ${service}:`, `      digest: ${digest(p * 10 + s)}`]),
        '',
      ].join('\n');
      const environment = [
        'apiVersion: platform.refplat.org/v1beta1',
        'kind: Environment',
        'metadata:',
        `  name: ${name}`,
        'spec:',
        `  team: ${team}`,
        `  product: ${product}`,
        `  stage: ${stage}`,
        '  services:',
        ...SERVICES.map(service => `    - name: ${service}`),
        '',
      ].join('\n');
      chunks.push(`M 100644 inline gitops/releases/${team}/${product}/${stage}.yaml\n`, data(release));
      chunks.push(`M 100644 inline gitops/environments/${team}/${product}/${stage}.yaml\n`, data(environment));
    }
  }
  chunks.push('\n');
  execFileSync('git', ['--git-dir', repoDir, 'fast-import', '--quiet'], {
    input: chunks.join(''),
    maxBuffer: 1 << 30,
  });
}

/** The digests addManyProducts gives Product `n`'s services, by service. */
export function addedProductDigests(n: number): Record<string, string> {
  return Object.fromEntries(SERVICES.map((service, s) => [service, digest(n * 10 + s)]));
}

/** The web digest changeOneRelease and newWebInEveryDev give a build. */
export function builtWebDigest(build: number): string {
  return digest(0xb000000 + build);
}

/**
 * One commit giving the dev Release of each of the first `count` Products
 * addManyProducts added a new web digest (`build`): a base-image fix rebuilt
 * across the fleet.
 */
export function newWebInEveryDev(repoDir: string, count: number, build: number): void {
  const head = execFileSync('git', ['--git-dir', repoDir, 'rev-parse', 'main'], { encoding: 'utf8' }).trim();
  const data = (text: string) => `data ${Buffer.byteLength(text)}\n${text}\n`;
  const chunks = ['commit refs/heads/main\n', 'committer Bench <bench@refplat.example> 1796000200 +0000\n', data(`bench: build ${build} of every web`), `from ${head}\n`];
  for (let n = 0; n < count; n++) {
    const path = `gitops/releases/team${n % 50}/product${n}/dev.yaml`;
    const current = execFileSync('git', ['--git-dir', repoDir, 'show', `main:${path}`], { encoding: 'utf8' });
    chunks.push(`M 100644 inline ${path}\n`, data(current.replace(/(web:\n\s+digest: )\S+/, `$1${builtWebDigest(build)}`)));
  }
  chunks.push('\n');
  execFileSync('git', ['--git-dir', repoDir, 'fast-import', '--quiet'], { input: chunks.join(''), maxBuffer: 1 << 30 });
}

/**
 * Commits a new web digest into the dev Release of one Product that
 * addManyProducts added: one changed file, as a CI build would make.
 */
export function changeOneRelease(repoDir: string, n: number, build: number): void {
  const team = `team${n % 50}`;
  const product = `product${n}`;
  const path = `gitops/releases/${team}/${product}/dev.yaml`;
  const current = execFileSync('git', ['--git-dir', repoDir, 'show', `main:${path}`], { encoding: 'utf8' });
  const changed = current.replace(/(web:\n\s+digest: )\S+/, `$1${builtWebDigest(build)}`);
  const data = (text: string) => `data ${Buffer.byteLength(text)}\n${text}\n`;
  const head = execFileSync('git', ['--git-dir', repoDir, 'rev-parse', 'main'], { encoding: 'utf8' }).trim();
  execFileSync('git', ['--git-dir', repoDir, 'fast-import', '--quiet'], {
    input: [
      'commit refs/heads/main\n',
      'committer Bench <bench@refplat.example> 1796000100 +0000\n',
      data(`bench: build ${build} of ${team}/${product} web`),
      `from ${head}\n`,
      `M 100644 inline ${path}\n`,
      data(changed),
      '\n',
    ].join(''),
  });
}
