import { useState } from 'react';
import { InfoCard, Progress, WarningPanel } from '@backstage/core-components';
import { CannotReadPanel } from '../common/CannotReadPanel';
import { useApi } from '@backstage/core-plugin-api';
import { MissingAnnotationEmptyState } from '@backstage/plugin-catalog-react';
import { Typography } from '@material-ui/core';
import { PRODUCT_ANNOTATION } from '@refplat/plugin-promotions-common';
import { promotionsApiRef } from '../../api';
import { useLiveProductData } from '../../hooks/useLiveProductData';
import { usePromotionsTarget } from '../../hooks/usePromotionsTarget';
import { ProductLookupError } from '../common/ProductLookupError';
import { PromotionHistoryTable } from './PromotionHistoryTable';
import { StageFilter } from './StageFilter';

/**
 * The Product's promotions and rollbacks, live and recent, newest first:
 * status, requester, approver, PR and how long each took, by stage.
 */
export const EntityPromotionHistoryCard = () => {
  const api = useApi(promotionsApiRef);
  const { target, loading: targetLoading, error: targetError } = usePromotionsTarget();
  const product = target?.product;
  // The ladder knows the stages in order (the promotions only those they touched), and the
  // approvals so far of each live promotion: read together, kept fresh together. The summary
  // ladder has them: no cell's details are shown here.
  const { value, error } = useLiveProductData(product, async p => {
    const [listed, ladder] = await Promise.all([api.listPromotions(p), api.getLadder(p, { detail: 'summary' })]);
    return { listed, ladder };
  });
  const promotions = value?.listed;
  const [stage, setStage] = useState<string>();

  if (targetLoading) return <Progress />;
  if (targetError) return <ProductLookupError error={targetError} />;
  if (!product) return <MissingAnnotationEmptyState annotation={PRODUCT_ANNOTATION} />;

  const stages = value?.ladder.stages.map(s => s.name) ?? [];
  const approvals = new Map(
    (value?.ladder.promotions ?? []).flatMap(p => (p.approval ? [[p.id, p.approval] as const] : [])),
  );
  const shown = (promotions ?? []).filter(p => !stage || p.toStage === stage);
  return (
    <InfoCard title="Promotion history" subheader={`${product.team}/${product.product}: promotions and rollbacks, newest first`}>
      {!promotions && !error && <Progress />}
      {error && !promotions && <CannotReadPanel what="the promotions" error={error} />}
      {error && promotions && (
        <WarningPanel
          severity="warning"
          title="Could not refresh the promotions; showing the last ones read"
          message={error.message}
        />
      )}
      {promotions && (
        <>
          <StageFilter stages={stages} selected={stage} onSelect={setStage} />
          {shown.length ? (
            <PromotionHistoryTable promotions={shown} approvals={approvals} now={new Date()} />
          ) : (
            <Typography color="textSecondary" data-testid="history-empty">
              {stage ? `No promotions into ${stage} yet.` : 'No promotions yet.'}
            </Typography>
          )}
        </>
      )}
    </InfoCard>
  );
};
