import { createExtensionPoint } from '@backstage/backend-plugin-api';
import type { PlatformRepo, PlatformRepoFiles } from '@refplat/plugin-promotions-node';

/** The platform repo's two ports: what reads the Release records, and what writes branches, commits and PRs. */
export interface PlatformRepoPorts {
  files: PlatformRepoFiles;
  writer: PlatformRepo;
}

/** The interface of {@link platformRepoSlotExtensionPoint}. */
export interface PlatformRepoSlot {
  /** Puts these ports in place of GitHub's adapters; a second call throws. */
  setPlatformRepo(ports: PlatformRepoPorts): void;
}

/**
 * The composition root's platform-repo slot, for the plugin's own tests: they run the whole
 * plugin (routes, Gate, queue, auto-promoter) on the in-memory fakes of
 * `@refplat/plugin-promotions-node/testUtils`. Not exported from the package: GitHub is the
 * contract, and the delivery metrics' history, the changes between stages and the webhooks
 * read GitHub itself.
 */
export const platformRepoSlotExtensionPoint = createExtensionPoint<PlatformRepoSlot>({
  id: 'promotions.platform-repo-slot',
});
