import { WarningPanel } from '@backstage/core-components';

/** Shown instead of a card when the entity's Product cannot be taken from its System. */
export const ProductLookupError = (props: { error: Error }) => (
  <WarningPanel
    severity="warning"
    title="Cannot find the Product of this entity"
    message={props.error.message}
  />
);
