import { Typography } from '@material-ui/core';
import { Progress } from '@backstage/core-components';
import { useApi } from '@backstage/core-plugin-api';
import Alert from '@material-ui/lab/Alert';
import useAsync from 'react-use/esm/useAsync';
import { ProductRef } from '@refplat/plugin-promotions-common';
import { promotionsApiRef } from '../../api';
import { errorMessage } from '../common/errorMessage';
import { ServiceChangeItem } from './ServiceChangeItem';

/**
 * What a promotion from `fromStage` to `toStage` would ship, per changed
 * service (only `services` when given): its commits, or why they are not shown.
 */
export const WhatChangedList = (props: {
  product: ProductRef;
  fromStage: string;
  toStage: string;
  services?: string[];
}) => {
  const api = useApi(promotionsApiRef);
  const { team, product } = props.product;
  const { fromStage, toStage } = props;
  const { value, loading, error } = useAsync(
    async () => api.getChanges({ team, product }, fromStage, toStage),
    [api, team, product, fromStage, toStage],
  );
  if (loading) return <Progress />;
  if (error) {
    return (
      <Alert severity="warning" data-testid="what-changed-error">
        Cannot read what changed between {fromStage} and {toStage}: {errorMessage(error)}
      </Alert>
    );
  }
  const changed = (value?.items ?? []).filter(
    item => item.changed && (!props.services || props.services.includes(item.service)),
  );
  if (changed.length === 0) {
    return (
      <Typography variant="body2" data-testid="what-changed-nothing">
        Nothing differs between {fromStage} and {toStage}.
      </Typography>
    );
  }
  return (
    <>
      {changed.map(change => (
        <ServiceChangeItem key={change.service} change={change} />
      ))}
    </>
  );
};
