import { ProductRef } from '@refplat/plugin-promotions-common';
import { InfoDialog } from '../common/InfoDialog';
import { WhatChangedList } from './WhatChangedList';

/** What a promotion from one stage into the next would ship. */
export const WhatChangedDialog = (props: {
  product: ProductRef;
  fromStage: string;
  toStage: string;
  onClose: () => void;
}) => (
  <InfoDialog
    testId="changes-dialog"
    maxWidth="md"
    title={`What changed: ${props.fromStage} → ${props.toStage}`}
    onClose={props.onClose}
  >
    <WhatChangedList
      product={props.product}
      fromStage={props.fromStage}
      toStage={props.toStage}
    />
  </InfoDialog>
);
