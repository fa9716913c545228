import { ServiceUnavailableError } from '@backstage/errors';

/**
 * The platform repo's host did not answer a call in time. A write may
 * still have been made, so the caller neither fails nor repeats it: a
 * promotion being opened keeps its opener's lease, and once that ends the
 * reconciler adopts its PR (found by the PR's marker) or fails it when
 * there is none.
 *
 * @public
 */
export class PlatformRepoUnansweredError extends ServiceUnavailableError {}
