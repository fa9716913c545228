import { SimOptions, startPlatformSim } from '@refplat/platform-sim';
import { isAddedProduct } from './manyProducts';

/**
 * The child side of simProcess.ts: starts the simulator with the options in
 * SIM_OPTIONS (JSON), tells the parent where it answers, and stops when told.
 * `withoutApplicationSets: "added"` leaves addManyProducts' Products without
 * an ApplicationSet (a function cannot cross the process boundary).
 */
async function main() {
  const { withoutApplicationSets, ...options } = JSON.parse(process.env.SIM_OPTIONS ?? '{}') as Partial<SimOptions> & {
    withoutApplicationSets?: 'added';
  };
  const sim = await startPlatformSim({
    ...options,
    ...(withoutApplicationSets === 'added' ? { hasApplicationSet: product => !isAddedProduct(product) } : {}),
  });
  process.on('message', message => {
    if (message === 'stop') sim.stop().then(() => process.exit(0));
  });
  // A bench that dies leaves no simulator behind.
  process.on('disconnect', () => process.exit(0));
  const { url, githubApiUrl, argocdUrl, kubernetesUrl, tokens, repoDir } = sim;
  process.send!({ url, githubApiUrl, argocdUrl, kubernetesUrl, tokens, repoDir });
}

main().catch(error => {
  process.stderr.write(`platform-sim child failed: ${error?.stack ?? error}\n`);
  process.exit(1);
});
