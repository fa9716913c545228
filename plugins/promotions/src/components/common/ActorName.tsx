import { EntityDisplayName, EntityRefLink } from '@backstage/plugin-catalog-react';
import { actorNameWithoutCatalog, isCatalogActor } from '@refplat/plugin-promotions-common';

/**
 * A person (or group) by their catalog display name, linked to their page
 * when `link` is set; the plugin's workers (`plugin:promotions/auto-promoter`,
 * `promotions-gate`) by their name.
 */
export const ActorName = (props: { actor: string; link?: boolean }) => {
  if (!isCatalogActor(props.actor)) return <>{actorNameWithoutCatalog(props.actor)}</>;
  return props.link ? (
    <EntityRefLink entityRef={props.actor} hideIcon />
  ) : (
    <EntityDisplayName entityRef={props.actor} hideIcon />
  );
};
