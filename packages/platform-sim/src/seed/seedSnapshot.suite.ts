import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gitText } from '../git/gitExec';
import { resolveOptions } from '../options';
import { startPlatformSim } from '../sim';
import { keepSeedSnapshot, restoreSeedSnapshot, seedSnapshotKey } from './seedSnapshot';

/** What a simulator's repositories hold: every ref of the platform repo and of an app repo. */
async function refsOf(repoDirs: string[]) {
  return Promise.all(repoDirs.map(dir => gitText(dir, ['for-each-ref', '--format=%(refname) %(objectname)'])));
}

export function seedSnapshotSuite(): void {
  describe('seed snapshots', () => {
    const dirs: string[] = [];
    const tempDir = () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'seed-snapshot-'));
      dirs.push(dir);
      return dir;
    };
    afterAll(() => dirs.forEach(dir => fs.rmSync(dir, { recursive: true, force: true })));

    it('restores every file kept, while fresh, and only for the same seed inputs', () => {
      const seeded = tempDir();
      fs.mkdirSync(path.join(seeded, 'platform.git', 'objects', 'ab'), { recursive: true });
      fs.writeFileSync(path.join(seeded, 'platform.git', 'HEAD'), 'ref: refs/heads/main\n');
      fs.writeFileSync(path.join(seeded, 'platform.git', 'objects', 'ab', 'cdef'), Buffer.from([1, 2, 3]));
      const key = seedSnapshotKey(resolveOptions({ dataDir: seeded }));
      keepSeedSnapshot(key, seeded, 1_000);

      const restored = tempDir();
      expect(restoreSeedSnapshot(key, restored, 1_000 + 60_000)).toBe(true);
      expect(fs.readFileSync(path.join(restored, 'platform.git', 'HEAD'), 'utf8')).toBe('ref: refs/heads/main\n');
      expect([...fs.readFileSync(path.join(restored, 'platform.git', 'objects', 'ab', 'cdef'))]).toEqual([1, 2, 3]);

      // The seed's dates are relative to its start: an old snapshot is not used.
      expect(restoreSeedSnapshot(key, tempDir(), 1_000 + 11 * 60_000)).toBe(false);
      const otherCanary = seedSnapshotKey(resolveOptions({ dataDir: seeded, canaryWeights: [50] }));
      expect(otherCanary).not.toBe(key);
      expect(restoreSeedSnapshot(otherCanary, tempDir(), 1_000)).toBe(false);
    });

    it("gives a second simulator the first one's repositories", async () => {
      const first = await startPlatformSim();
      const firstRefs = await refsOf([first.repoDir, first.appRepoDir('alpha', 'shop')]);
      await first.stop();
      const second = await startPlatformSim();
      try {
        expect(await refsOf([second.repoDir, second.appRepoDir('alpha', 'shop')])).toEqual(firstRefs);
        expect(second.repoDir).not.toBe(first.repoDir);
        // And it runs: the seeded Applications are there.
        const apps = await (await fetch(`${second.argocdUrl}/api/v1/applications`, {
          headers: { Authorization: `Bearer ${second.tokens.argocd}` },
        })).json();
        expect(apps.items.length).toBeGreaterThan(0);
      } finally {
        await second.stop();
      }
    });
  });
}
