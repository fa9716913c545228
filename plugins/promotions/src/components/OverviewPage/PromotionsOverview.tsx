import { Tab, Tabs, makeStyles } from '@material-ui/core';
import { useSearchParams } from 'react-router-dom';
import { ApprovalsInbox } from '../Approvals';
import { OrganisationMatrix } from '../Matrix';
import { DeliveryMetricsView } from '../Metrics';
import { StuckList } from '../Stuck';
import { WriteQueueNotice } from '../WriteQueue';

const TABS = [
  { id: 'matrix', label: 'Matrix', view: () => <OrganisationMatrix /> },
  { id: 'approvals', label: 'Approvals', view: () => <ApprovalsInbox /> },
  { id: 'stuck', label: 'Stuck', view: () => <StuckList /> },
  { id: 'metrics', label: 'Metrics', view: () => <DeliveryMetricsView /> },
] as const;

const useStyles = makeStyles(theme => ({ tabs: { marginBottom: theme.spacing(2) } }));

/**
 * The organisation's promotions: the matrix, the approvals inbox, the stuck
 * list and the delivery metrics, one tab each, under the write queue's
 * length while auto-promotions wait in it. The tab is in the address
 * (`?tab=stuck`) so it can be linked; `/promotions/approvals` stays its own page.
 */
export const PromotionsOverview = () => {
  const classes = useStyles();
  const [params, setParams] = useSearchParams();
  const current = TABS.find(tab => tab.id === params.get('tab')) ?? TABS[0];
  return (
    <>
      <WriteQueueNotice />
      <Tabs
        className={classes.tabs}
        value={current.id}
        onChange={(_event, id: string) => setParams({ tab: id }, { replace: true })}
        indicatorColor="primary"
      >
        {TABS.map(tab => (
          <Tab key={tab.id} value={tab.id} label={tab.label} data-testid={`tab-${tab.id}`} />
        ))}
      </Tabs>
      <current.view />
    </>
  );
};
