import fs from 'fs';
import path from 'path';
import { ConfigReader } from '@backstage/config';
import { parse } from 'yaml';
import { readProvenanceConfig } from './provenanceConfig';

const REPO_ROOT = path.resolve(__dirname, '../../../..');
const read = (file: string) => fs.readFileSync(path.join(REPO_ROOT, file), 'utf8');

/** The demo's provenance (app-config.provenance.yaml), which scripts/start.sh adds with the registry it starts. */
describe("the demo's provenance config", () => {
  const config = new ConfigReader(parse(read('app-config.provenance.yaml')));
  const provenance = readProvenanceConfig(config.getConfig('promotions.provenance'), ['dev', 'test', 'uat', 'staging', 'prod']);

  it("enforces from test on, with the source repository's workflows on the simulator's GitHub as signer and builder", () => {
    expect(provenance).toMatchObject({
      mode: 'enforce',
      stages: ['test', 'uat', 'staging', 'prod'],
      signer: { identity: 'http://127.0.0.1:7070/refplat/{product}/.github/workflows/build-sign.yml@refs/heads/main' },
      builder: { identity: 'http://127.0.0.1:7070/refplat/{product}/.github/workflows/provenance.yml@refs/heads/main' },
      sourceRepository: 'http://127.0.0.1:7070/refplat/{product}',
    });
  });

  it("reads the registry start.sh has the simulator start, and the simulator's trusted root", () => {
    const start = read('scripts/start.sh');
    const registryPort = /^REGISTRY_PORT=(\d+)$/m.exec(start)?.[1];
    expect(start).toContain('--registry-port "$REGISTRY_PORT"');
    expect(start).toContain('--config "$PWD/app-config.provenance.yaml"');
    expect(provenance.mode !== 'off' && provenance.registry.url).toBe(`http://127.0.0.1:${registryPort}`);
    expect(provenance.mode !== 'off' && provenance.trustedRoot).toEqual({ url: 'http://127.0.0.1:7070/sigstore/trusted_root.json' });
  });
});
