import { useMemo, useState } from 'react';
import { useApi } from '@backstage/core-plugin-api';
import { Ladder } from '@refplat/plugin-promotions-common';
import { promotionsApiRef } from '../../api';
import { useSubmitAction } from '../../hooks/useSubmitAction';
import { ConfirmDialog } from '../common/ConfirmDialog';
import { WhatChangedSection } from '../WhatChanged/WhatChangedSection';
import { OpenPromotionNotice } from './OpenPromotionNotice';
import { PlannedChanges } from './PlannedChanges';
import { RequestedPromotion } from './RequestedPromotion';
import { carriesExactly, livePromotionInto } from './livePromotion';
import { previewPromotion } from './previewPromotion';

/**
 * Shows what a promotion would change and ship, and the promotion it would
 * replace, requests it, then follows it.
 */
export const RequestPromotionDialog = (props: {
  ladder: Ladder;
  toStage: string;
  service?: string;
  onRequested: () => void;
  onClose: () => void;
}) => {
  const { ladder, toStage, service, onRequested } = props;
  const api = useApi(promotionsApiRef);
  const product = useMemo(
    () => ({ team: ladder.team, product: ladder.product }),
    [ladder.team, ladder.product],
  );
  const preview = useMemo(
    () => previewPromotion(ladder, toStage, service),
    [ladder, toStage, service],
  );
  // What was in flight when the user opened the dialog, even if a refresh moves on.
  const [live] = useState(() => livePromotionInto(ladder, toStage));
  const replaces =
    !!live &&
    !carriesExactly(live, Object.fromEntries(preview.changes.map(c => [c.service, c.next])));
  const [replaceConfirmed, setReplaceConfirmed] = useState(false);
  const request = useSubmitAction(() => {
    // Name the services shown, so the PR carries exactly what the user
    // saw; with none shown, let the backend pick and explain.
    const services = preview.changes.length
      ? preview.changes.map(change => change.service)
      : undefined;
    return api.requestPromotion(product, { toStage, services });
  }, onRequested);
  const response = request.result;
  const number = live?.pullRequest.number ?? 0;
  return (
    <ConfirmDialog
      testIdPrefix="promotion"
      confirmTestId="promotion-submit"
      maxWidth="md"
      title={
        <>
          Request promotion into {toStage}
          {service ? ` of ${service}` : ''}
        </>
      }
      confirmLabel={replaces ? `Replace ${number > 0 ? `#${number}` : 'it'}` : 'Submit'}
      busyLabel="Requesting…"
      busy={request.busy}
      error={request.error}
      done={!!response}
      confirmDisabled={replaces && !replaceConfirmed}
      onConfirm={request.submit}
      onClose={props.onClose}
    >
      {response ? (
        <RequestedPromotion product={product} response={response} />
      ) : (
        <>
          <PlannedChanges preview={preview} approvers={ladder.approvers ?? []} />
          {live && (
            <OpenPromotionNotice
              promotion={live}
              replaces={replaces}
              confirmed={replaceConfirmed}
              onConfirmedChange={setReplaceConfirmed}
            />
          )}
          {preview.fromStage && (
            <WhatChangedSection
              product={product}
              fromStage={preview.fromStage}
              toStage={toStage}
              services={service ? [service] : undefined}
            />
          )}
        </>
      )}
    </ConfirmDialog>
  );
};
