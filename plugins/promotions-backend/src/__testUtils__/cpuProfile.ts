import { writeFileSync } from 'fs';
import { Session } from 'inspector';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Main-thread CPU seconds by whose code was running: the simulator's, the plugin's, the garbage collector, the rest. */
export type CpuSplit = Record<'simulator' | 'plugin' | 'garbageCollector' | 'other', number>;

/**
 * The bench runs the plugin and the simulator in one Node process, so the
 * simulator's own work (ArgoCD reconciling, GitHub answering) slows the
 * plugin's clock. A sample counts as the simulator's when a simulator frame
 * is on its stack, else as the plugin's when a plugin frame is.
 */
function split(profile: Profile): CpuSplit {
  const byId = new Map(profile.nodes.map(node => [node.id, node]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const owner = (id: number): keyof CpuSplit => {
    let result: keyof CpuSplit = 'other';
    for (let at: number | undefined = id; at !== undefined; at = parentOf.get(at)) {
      const url = byId.get(at)!.callFrame.url;
      if (url.includes('packages/platform-sim/')) return 'simulator';
      if (url.includes('plugins/promotions')) result = 'plugin';
    }
    return result;
  };
  const seconds: CpuSplit = { simulator: 0, plugin: 0, garbageCollector: 0, other: 0 };
  profile.samples.forEach((id, i) => {
    const name = byId.get(id)!.callFrame.functionName;
    if (name === '(idle)' || name === '(program)') return;
    const key = name === '(garbage collector)' ? 'garbageCollector' : owner(id);
    seconds[key] += (profile.timeDeltas[i] ?? 0) / 1e6;
  });
  return Object.fromEntries(Object.entries(seconds).map(([k, v]) => [k, Math.round(v * 10) / 10])) as CpuSplit;
}

/** Profiles `work` when `file` is given (a .cpuprofile for Chrome's DevTools), and answers the split of its CPU time. */
export async function profiled<T>(file: string | undefined, work: () => Promise<T>): Promise<{ result: T; cpu?: CpuSplit }> {
  if (!file) return { result: await work() };
  const session = new Session();
  session.connect();
  const post = <R>(method: string) =>
    new Promise<R>((resolve, reject) => session.post(method, (error, answer) => (error ? reject(error) : resolve(answer as R))));
  await post('Profiler.enable');
  await post('Profiler.start');
  try {
    const result = await work();
    const { profile } = await post<{ profile: Profile }>('Profiler.stop');
    writeFileSync(file, JSON.stringify(profile));
    return { result, cpu: split(profile) };
  } finally {
    session.disconnect();
  }
}
