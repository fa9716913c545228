import { CSSProperties, useState } from 'react';
import { FixedSizeList, ListChildComponentProps } from 'react-window';
import { useNavigate } from 'react-router-dom';
import { Progress } from '@backstage/core-components';
import { CannotReadPanel } from '../common/CannotReadPanel';
import { useRouteRef } from '@backstage/core-plugin-api';
import { EntityRefLink, entityRouteParams, entityRouteRef } from '@backstage/plugin-catalog-react';
import { Paper, Typography, makeStyles } from '@material-ui/core';
import { Entity } from '@backstage/catalog-model';
import { OverviewCriteria, OverviewRow } from '@refplat/plugin-promotions-common';
import { useProductSystems } from '../Approvals/useProductSystems';
import { MatrixCell } from './MatrixCell';
import { MatrixFilters } from './MatrixFilters';
import { useOverviewPages } from './useOverviewPages';

const ROW_HEIGHT = 64;
const VISIBLE_ROWS = 10;
/** Read the next page when the list shows a row this close to the end. */
const PREFETCH_ROWS = 20;

const useStyles = makeStyles(theme => ({
  row: {
    display: 'grid',
    alignItems: 'center',
    gap: theme.spacing(2),
    padding: theme.spacing(0, 2),
    borderBottom: `1px solid ${theme.palette.divider}`,
    boxSizing: 'border-box',
  },
  clickable: { cursor: 'pointer', '&:hover': { backgroundColor: theme.palette.action.hover } },
  header: { fontWeight: theme.typography.fontWeightBold as number, height: 40 },
  product: { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
  summary: { padding: theme.spacing(1, 2) },
}));

const columns = (stages: string[]) => `minmax(180px, 1.2fr) repeat(${stages.length}, minmax(150px, 1fr))`;

interface RowData {
  rows: OverviewRow[];
  stages: string[];
  systems: Map<string, Entity>;
  now: Date;
  open: (system: Entity) => void;
}

const MatrixRow = ({ index, style, data }: ListChildComponentProps<RowData>) => {
  const classes = useStyles();
  const row = data.rows[index];
  const system = data.systems.get(row.product);
  const rowStyle: CSSProperties = { ...style, gridTemplateColumns: columns(data.stages) };
  return (
    <div
      role="row"
      style={rowStyle}
      className={`${classes.row} ${system ? classes.clickable : ''}`}
      tabIndex={system ? 0 : -1}
      onClick={system ? () => data.open(system) : undefined}
      onKeyDown={event => {
        if (system && event.key === 'Enter') data.open(system);
      }}
      data-testid={`matrix-row-${row.product}`}
    >
      <div className={classes.product} role="rowheader">
        {system ? <EntityRefLink entityRef={system} title={row.title ?? row.product} /> : row.title ?? row.product}
        <Typography variant="caption" color="textSecondary" display="block">
          {row.owners.map(owner => owner.replace(/^group:(default\/)?/, '')).join(', ')}
        </Typography>
      </div>
      {row.cells.map(cell => (
        <MatrixCell key={cell.stage} cell={cell} now={data.now} testId={`matrix-cell-${row.product}-${cell.stage}`} />
      ))}
    </div>
  );
};

/**
 * Every Product the viewer may read as a row, its stages as columns (bottom
 * first). Filtered and paged by the backend; only the rows in view are
 * drawn (react-window), so a thousand Products scroll smoothly. A row opens
 * the Product's System page, where its ladder is.
 */
export const OrganisationMatrix = (props: { now?: Date }) => {
  const classes = useStyles();
  const [criteria, setCriteria] = useState<OverviewCriteria>({});
  const overview = useOverviewPages(criteria);
  const systems = useProductSystems(overview.rows.map(row => row.product));
  const entityRoute = useRouteRef(entityRouteRef);
  const navigate = useNavigate();
  const { rows, stages } = overview;
  const data: RowData = {
    rows,
    stages,
    systems,
    now: props.now ?? new Date(),
    open: system => navigate(entityRoute(entityRouteParams(system))),
  };

  return (
    <div data-testid="organisation-matrix">
      <MatrixFilters onChange={setCriteria} />
      {overview.error && <CannotReadPanel what="the overview" error={overview.error} />}
      {overview.loading && rows.length === 0 && <Progress />}
      {!overview.loading && !overview.error && rows.length === 0 && (
        <Typography color="textSecondary" data-testid="matrix-empty">
          No Product matches these filters.
        </Typography>
      )}
      {rows.length > 0 && (
        <Paper role="table" aria-label="Products by stage">
          <div role="row" className={`${classes.row} ${classes.header}`} style={{ gridTemplateColumns: columns(stages) }}>
            <div role="columnheader">Product</div>
            {stages.map(stage => (
              <div role="columnheader" key={stage}>
                {stage}
              </div>
            ))}
          </div>
          <FixedSizeList
            height={Math.min(rows.length, VISIBLE_ROWS) * ROW_HEIGHT}
            width="100%"
            itemCount={rows.length}
            itemSize={ROW_HEIGHT}
            itemData={data}
            itemKey={(index, d) => d.rows[index].product}
            onItemsRendered={({ visibleStopIndex }) => {
              if (overview.hasMore && visibleStopIndex >= rows.length - PREFETCH_ROWS) overview.loadMore();
            }}
          >
            {MatrixRow}
          </FixedSizeList>
          <Typography variant="body2" color="textSecondary" className={classes.summary} data-testid="matrix-count">
            {rows.length} of {overview.total} Products{overview.loading ? ', reading more…' : ''}
          </Typography>
        </Paper>
      )}
    </div>
  );
};
