import { useMemo, useState } from 'react';
import { useApi } from '@backstage/core-plugin-api';
import { Ladder, NamedGuardVerdict } from '@refplat/plugin-promotions-common';
import { promotionsApiRef } from '../../api';
import { useSubmitAction } from '../../hooks/useSubmitAction';
import { ConfirmDialog } from '../common/ConfirmDialog';
import { WhatChangedSection } from '../WhatChanged/WhatChangedSection';
import { OpenPromotionNotice } from './OpenPromotionNotice';
import { OverrideSection, overrideTitle } from './OverrideSection';
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
  /** The guards' blocks a release-approver overrides by requesting anyway. */
  blocks?: NamedGuardVerdict[];
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
  // What blocked when the user opened the dialog, even if a refresh moves on.
  const [blocks] = useState(() => props.blocks ?? []);
  const [overrideReason, setOverrideReason] = useState('');
  const overriding = blocks.length > 0;
  const request = useSubmitAction(() => {
    // Name the services shown, so the PR carries exactly what the user
    // saw; with none shown, let the backend pick and explain.
    const services = preview.changes.length
      ? preview.changes.map(change => change.service)
      : undefined;
    const override = overriding ? { reason: overrideReason.trim() } : undefined;
    return api.requestPromotion(product, { toStage, services, override });
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
      confirmLabel={confirmLabel(replaces, number, overriding ? overrideTitle(blocks) : undefined)}
      busyLabel="Requesting…"
      busy={request.busy}
      error={request.error}
      done={!!response}
      confirmDisabled={(replaces && !replaceConfirmed) || (overriding && !overrideReason.trim())}
      onConfirm={request.submit}
      onClose={props.onClose}
    >
      {response ? (
        <RequestedPromotion product={product} response={response} />
      ) : (
        <>
          {overriding && (
            <OverrideSection blocks={blocks} reason={overrideReason} onReasonChange={setOverrideReason} />
          )}
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

/** "Submit", "Replace #42", or "Override freeze" when the request lifts a block. */
function confirmLabel(replaces: boolean, number: number, override?: string): string {
  if (override) return override;
  return replaces ? `Replace ${number > 0 ? `#${number}` : 'it'}` : 'Submit';
}
