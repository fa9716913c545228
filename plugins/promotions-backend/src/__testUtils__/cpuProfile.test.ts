import { mkdtempSync, readFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { profiled } from './cpuProfile';

describe('profiled', () => {
  it('runs the work alone when no file is asked for', async () => {
    expect(await profiled(undefined, async () => 42)).toEqual({ result: 42 });
  });

  it("writes the work's CPU profile and splits its seconds by whose code ran", async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'cpu-')), 'run.cpuprofile');
    const busy = async () => {
      const until = Date.now() + 200;
      let spins = 0;
      while (Date.now() < until) spins++;
      return spins;
    };

    const { result, cpu } = await profiled(file, busy);

    expect(result).toBeGreaterThan(0);
    expect(JSON.parse(readFileSync(file, 'utf8')).samples.length).toBeGreaterThan(0);
    // This test file is the plugin's own code.
    expect(cpu!.plugin).toBeGreaterThan(0.1);
    expect(cpu!.simulator).toBe(0);
  });
});
