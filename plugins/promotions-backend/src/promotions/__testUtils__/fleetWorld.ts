import { ProductRef } from '@refplat/plugin-promotions-common';
import { environmentPath, releasePath } from '../../ladder/readProductRecords';
import { parseRelease } from '../../releases/records';
import { digest, environmentFile, productSystem, promotionsWorld, releaseFile } from './promotionsWorld';
import { FleetGate } from '../FleetGate';
import { FleetOpener } from '../FleetOpener';
import { PromotionQueue } from '../PromotionQueue';

export const PRODUCTS: ProductRef[] = [
  { team: 'alpha', product: 'shop' },
  { team: 'beta', product: 'cart' },
  { team: 'gamma', product: 'pay' },
];

/**
 * Three Products, each with `b` in dev, healthy, and `a` in uat and prod; fleet mode on. The
 * auto-promoter queues dev → uat for each; the write queue opens one fleet PR; `fleetGate`
 * judges it on the real ladder of the fake repo and ArgoCD.
 */
export async function fleetWorld(fleet: object = {}) {
  const world = promotionsWorld({ config: { autoPromote: { fleet: { enabled: true, ...fleet } } } });
  const { repo, config, store, directory, logger, clock, argo } = world;
  repo.commit(
    Object.fromEntries(
      PRODUCTS.slice(1).flatMap(product =>
        Object.entries({ dev: 'b', uat: 'a', prod: 'a' }).flatMap(([stage, c]) => [
          [releasePath(config, product, stage), releaseFile(stage, { api: digest(c) })],
          [environmentPath(config, product, stage), environmentFile(stage, ['api'])],
        ]),
      ),
    ),
    { message: 'Seed beta/cart and gamma/pay' },
  );
  const runAsReleased = () => {
    const head = repo.branchHead()!;
    for (const product of PRODUCTS) {
      for (const stage of config.stages) {
        const text = repo.fileAt(head, releasePath(config, product, stage));
        if (text) argo.runs(product, stage, parseRelease(text).services, head);
      }
    }
  };
  runAsReleased();
  const opened: string[] = [];
  const queue = new PromotionQueue({
    config,
    store,
    opener: world.opener,
    files: repo,
    logger,
    clock,
    onOpened: id => opened.push(id),
    fleetOpener: new FleetOpener({ config, store, writer: repo, files: repo, names: directory, logger, clock }),
  });
  const fleetGate = new FleetGate({ config, store, writer: repo, files: repo, ladder: world.ladderService(), logger, clock });
  const run = await world.autoPromoter({ systems: PRODUCTS.map(p => productSystem(`${p.team}/${p.product}`)) }).run();
  const released = (product: ProductRef, stage: string) =>
    parseRelease(repo.fileAt(repo.baseBranch, releasePath(config, product, stage))!).services.api;
  /** beta/cart's dev degrades (after the fleet PR opened): its promotion must not merge. */
  const degradeCartDev = () =>
    argo.setApplication({ team: 'beta', product: 'cart' }, 'dev', {
      revision: repo.branchHead()!,
      health: 'Degraded',
      images: [`registry.example/team-beta/cart-api@${digest('b')}`],
      rollouts: { api: 'Degraded' },
    });
  return { ...world, queue, fleetGate, run, opened, runAsReleased, released, degradeCartDev };
}
