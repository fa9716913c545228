import { ChildProcess, spawn } from 'child_process';
import path from 'path';
import type { DecidedAtScale, DecideAtScaleInput } from './decideAtScale';

/** Runs decideAtScale.ts in a Node process of its own with `--max-old-space-size`; resolves with what it printed. */
export function decideInChildProcess(
  input: DecideAtScaleInput,
  heapLimitMb: number,
  started: (child: ChildProcess) => void,
): Promise<DecidedAtScale> {
  const entry = path.join(__dirname, 'decideAtScale.ts');
  const child = spawn(
    process.execPath,
    [`--max-old-space-size=${heapLimitMb}`, '--require', require.resolve('@backstage/cli/config/nodeTransform.cjs'), entry],
    { env: { ...process.env, DECIDE_AT_SCALE: JSON.stringify(input) }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  started(child);
  let output = '';
  child.stdout.on('data', chunk => (output += chunk));
  child.stderr.on('data', chunk => (output += chunk));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      const line = output.split('\n').find(candidate => candidate.startsWith('decided '));
      if (code === 0 && line) resolve(JSON.parse(line.slice('decided '.length)));
      // Out of heap, V8 aborts: the output says so.
      else reject(new Error(`the deciding process ended (exit code ${code}, signal ${signal}):\n${output.slice(-4000)}`));
    });
  });
}
