import {
  InfoCard,
  Progress,
  WarningPanel,
} from '@backstage/core-components';
import { CannotReadPanel } from '../common/CannotReadPanel';
import { errorMessage } from '../common/errorMessage';
import { HealthUnknownPanel } from '../common/HealthUnknownPanel';
import { MissingAnnotationEmptyState } from '@backstage/plugin-catalog-react';
import { PRODUCT_ANNOTATION } from '@refplat/plugin-promotions-common';
import { ProductAccessProvider } from '../../access/ProductAccessContext';
import { useLadder } from '../../hooks/useLadder';
import { usePromotionsTarget } from '../../hooks/usePromotionsTarget';
import { ProductLookupError } from '../common/ProductLookupError';
import { OpenPromotionsList } from '../OpenPromotions/OpenPromotionsList';
import { LadderTable } from './LadderTable';

/** The Product's promotion ladder: stages left to right, services as rows. */
export const EntityPromotionLadderCard = () => {
  const { target, loading: targetLoading, error: targetError } = usePromotionsTarget();
  const { ladder, error, loading, refresh } = useLadder(target?.product);

  if (targetLoading) return <Progress />;
  if (targetError) return <ProductLookupError error={targetError} />;
  if (!target) {
    return <MissingAnnotationEmptyState annotation={PRODUCT_ANNOTATION} />;
  }

  const subheader = ladder
    ? `${ladder.team}/${ladder.product} · platform repo at ${ladder.revision.slice(0, 7)}`
    : `${target.product.team}/${target.product.product}`;

  return (
    <InfoCard title="Promotion ladder" subheader={subheader}>
      <div data-testid="ladder-card">
        {loading && !ladder && <Progress />}
        {error && !ladder && <CannotReadPanel what="the ladder" error={error} />}
        {error && ladder && (
          <WarningPanel
            severity="warning"
            title="Could not refresh the ladder; showing the last one read"
            message={errorMessage(error)}
          />
        )}
        {ladder?.healthError && <HealthUnknownPanel reason={ladder.healthError} />}
        {ladder && (
          <ProductAccessProvider product={target.product} approvers={ladder.approvers ?? []}>
            <LadderTable ladder={ladder} highlightService={target.service} onChanged={refresh} />
            <OpenPromotionsList ladder={ladder} onChanged={refresh} />
          </ProductAccessProvider>
        )}
      </div>
    </InfoCard>
  );
};
