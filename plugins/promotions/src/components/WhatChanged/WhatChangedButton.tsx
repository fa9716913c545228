import { useState } from 'react';
import { ProductRef } from '@refplat/plugin-promotions-common';
import { LinkButton } from '../common/LinkButton';
import { WhatChangedDialog } from './WhatChangedDialog';

/** Opens what a promotion from the stage below into `toStage` would ship. */
export const WhatChangedButton = (props: {
  product: ProductRef;
  fromStage: string;
  toStage: string;
}) => {
  const [open, setOpen] = useState(false);
  const label = `What changed from ${props.fromStage} to ${props.toStage}`;
  return (
    <>
      <LinkButton
        label="Changes"
        name={`Changes from ${props.fromStage} to ${props.toStage}`}
        title={label}
        onClick={() => setOpen(true)}
        testId={`changes-${props.toStage}`}
      />
      {open && (
        <WhatChangedDialog
          product={props.product}
          fromStage={props.fromStage}
          toStage={props.toStage}
          onClose={() => setOpen(false)}
        />
      )}
    </>
  );
};
