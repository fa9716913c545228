import { QueueOpening } from '@refplat/plugin-promotions-common';

const LIMIT_WORDS = {
  'github-minute-write-limit': "GitHub's write limit per minute",
  'github-hourly-write-limit': "GitHub's hourly write limit",
} as const;

/** "08:42", in the viewer's time zone. */
function timeOfDay(iso: string): string {
  return new Date(iso).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
}

/**
 * "GitHub's hourly write limit: the next opens about 08:42", while GitHub's write limit holds
 * the queue; nothing while its PRs open in their turn.
 */
export function queueOpeningWords(
  opening: { waitingFor?: QueueOpening['waitingFor']; opensAt?: string } | undefined,
): string | undefined {
  if (!opening?.opensAt || !opening.waitingFor || opening.waitingFor === 'turn') return undefined;
  return `${LIMIT_WORDS[opening.waitingFor]}: the next opens about ${timeOfDay(opening.opensAt)}`;
}
