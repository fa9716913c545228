import { Link, Progress, Table, TableColumn } from '@backstage/core-components';
import { CannotReadPanel } from '../common/CannotReadPanel';
import { useApi } from '@backstage/core-plugin-api';
import { EntityRefLink, EntityRefLinks } from '@backstage/plugin-catalog-react';
import { Typography } from '@material-ui/core';
import useAsync from 'react-use/esm/useAsync';
import { StuckItem, formatSeconds } from '@refplat/plugin-promotions-common';
import { promotionsApiRef } from '../../api';
import { useProductSystems } from '../Approvals/useProductSystems';

/** How long since `since`, or a dash when the backend does not know. */
function stuckFor(item: StuckItem, now: Date): string {
  return item.stuckSince ? formatSeconds((now.getTime() - Date.parse(item.stuckSince)) / 1000) : '—';
}

/**
 * Every diagnosed-stuck deployment the viewer may read, the longest stuck
 * first (the backend's order): where, the diagnosis, for how long, who owns
 * it, and the first place to look.
 */
export const StuckList = (props: { now?: Date }) => {
  const api = useApi(promotionsApiRef);
  const stuck = useAsync(() => api.listStuck(), [api]);
  const systems = useProductSystems((stuck.value ?? []).map(item => item.product));
  const now = props.now ?? new Date();

  if (stuck.loading) return <Progress />;
  if (stuck.error) return <CannotReadPanel what="the stuck list" error={stuck.error} />;
  const items = stuck.value ?? [];
  if (items.length === 0) {
    return (
      <Typography color="textSecondary" data-testid="stuck-empty">
        Nothing is stuck.
      </Typography>
    );
  }

  const columns: TableColumn<StuckItem>[] = [
    {
      title: 'Product',
      render: item => {
        const system = systems.get(item.product);
        return system ? <EntityRefLink entityRef={system} title={item.product} /> : item.product;
      },
    },
    { title: 'Where', render: item => (item.service ? `${item.service} in ${item.stage}` : item.stage) },
    {
      title: 'Diagnosis',
      render: item => (
        <div data-testid={`stuck-${item.product}-${item.stage}-${item.service ?? ''}`}>
          <Typography variant="body2">{item.summary}</Typography>
          <Typography variant="caption" color="textSecondary">
            {item.diagnosis.likelyCause}
          </Typography>
        </div>
      ),
    },
    { title: 'Stuck for', render: item => stuckFor(item, now) },
    { title: 'Owner', render: item => <EntityRefLinks entityRefs={item.owners} defaultKind="group" /> },
    {
      title: 'Look at',
      render: item => {
        const link = item.diagnosis.whereToLook.find(where => where.url);
        return link?.url ? <Link to={link.url}>{link.label}</Link> : '—';
      },
    },
  ];

  return (
    <Table<StuckItem>
      title={`Stuck (${items.length})`}
      options={{ paging: items.length > 20, pageSize: 20, search: false, sorting: false }}
      columns={columns}
      data={items}
    />
  );
};
