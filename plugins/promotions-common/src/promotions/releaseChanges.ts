import { ReleaseChange } from './types';

/**
 * What a commit of a Release record changed: each Service whose digest
 * differs between the commit's parent (`before`) and the commit (`after`).
 * `before` is undefined for the record's first commit, which adds every
 * Service it names. Added and changed Services come in `after`'s order,
 * then removed ones in `before`'s.
 *
 * @public
 */
export function releaseChanges(
  before: Readonly<Record<string, string>> | undefined,
  after: Readonly<Record<string, string>>,
): ReleaseChange[] {
  const parent = before ?? {};
  const addedOrChanged = Object.entries(after)
    .filter(([service, to]) => parent[service] !== to)
    .map(([service, to]): ReleaseChange =>
      service in parent ? { service, from: parent[service], to } : { service, to },
    );
  const removed = Object.entries(parent)
    .filter(([service]) => !(service in after))
    .map(([service, from]): ReleaseChange => ({ service, from }));
  return [...addedOrChanged, ...removed];
}
