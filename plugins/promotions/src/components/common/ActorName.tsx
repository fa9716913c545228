import { EntityDisplayName } from '@backstage/plugin-catalog-react';

const CATALOG_REF = /^(user|group):/i;

/**
 * How to call an actor that is not in the catalog: the plugin's own workers
 * (`plugin:promotions/auto-promoter`, `promotions-gate`) by their name.
 */
export function machineActorName(actor: string): string {
  const name = actor.replace(/^plugin:[^/]+\//, '').replace(/^promotions-/, '');
  return name.charAt(0).toLocaleUpperCase('en-US') + name.slice(1);
}

/** A person (or group) by their catalog display name; the plugin's workers by name. */
export const ActorName = (props: { actor: string }) =>
  CATALOG_REF.test(props.actor) ? (
    <EntityDisplayName entityRef={props.actor} hideIcon />
  ) : (
    <>{machineActorName(props.actor)}</>
  );
