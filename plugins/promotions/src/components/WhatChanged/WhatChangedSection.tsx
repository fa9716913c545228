import { Typography } from '@material-ui/core';
import { ProductRef } from '@refplat/plugin-promotions-common';
import { useSectionStyles } from '../common/styles';
import { WhatChangedList } from './WhatChangedList';

/** The "What changed" block of the Request Promotion dialog. */
export const WhatChangedSection = (props: {
  product: ProductRef;
  fromStage: string;
  toStage: string;
  services?: string[];
}) => {
  const classes = useSectionStyles();
  return (
    <div className={classes.section} data-testid="what-changed">
      <Typography variant="subtitle2">What changed</Typography>
      <WhatChangedList {...props} />
    </div>
  );
};
