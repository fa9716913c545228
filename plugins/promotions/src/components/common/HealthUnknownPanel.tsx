import { WarningPanel } from '@backstage/core-components';

/**
 * Health could not be read: the reason is the warning's title, as Backstage
 * folds a WarningPanel's message away, and the message says what it means.
 */
export const HealthUnknownPanel = (props: { reason: string }) => (
  <WarningPanel
    severity="error"
    title={`Health unknown: ${props.reason}`}
    message="Digests come from the platform repo; nothing is promotable until health is known."
  />
);
