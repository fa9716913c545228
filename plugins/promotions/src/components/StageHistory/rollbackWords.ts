import { RollbackKind } from '@refplat/plugin-promotions-common';

/** A commit as the history table shows it, and as the rollback dialog names it. */
export function shortCommit(revision: string): string {
  return revision.slice(0, 7);
}

/** How each way back from a history row is named: on its button, in its dialog, on hover. */
export const ROLLBACK_WORDS: Record<
  RollbackKind,
  {
    label: string;
    verb: string;
    title: (stage: string, commit: string) => string;
    what: (services: string[]) => string;
  }
> = {
  revert: {
    label: 'Revert this change',
    verb: 'Revert',
    title: (stage, commit) => `Revert ${commit} in ${stage}`,
    what: services => `Write ${services.join(', ')} back to the digests this change replaced`,
  },
  restore: {
    label: 'Restore this state',
    verb: 'Restore',
    title: (stage, commit) => `Restore ${stage} to the state after ${commit}`,
    what: services => `Write ${services.join(', ')} back to the digests after this change`,
  },
};
