/**
 * The words of `diagnoseHops`: each hop of seed 000's call sequence (digest → admission →
 * scheduling → image pull → probes → analysis window → route) and what its evidence says.
 */

/** @public */
export type Hop =
  | 'registry'
  | 'admission'
  | 'scheduling'
  | 'image-pull'
  | 'probes'
  | 'analysis-window'
  | 'route';

/**
 * `waiting`: the hop is under way and not stuck (an analysis window still measuring).
 * `not-reached`: an earlier hop stalled or is still waiting.
 *
 * @public
 */
export type HopMark = 'completed' | 'waiting' | 'stalled' | 'not-reached' | 'unknown';

/** @public */
export interface HopLook {
  kind: 'kubectl' | 'policy' | 'argocd-resource' | 'registry';
  /** A command to run, or where to look in words. */
  text: string;
  href?: string;
}

/** @public */
export interface HopReading {
  hop: Hop;
  mark: HopMark;
  /** One line: what the evidence says, e.g. "Kyverno policy verify-image/check-signature denied the Pod: …". */
  evidence?: string;
  /** ISO time the evidence was last seen. */
  seenAt?: string;
  lookAt?: HopLook;
}

