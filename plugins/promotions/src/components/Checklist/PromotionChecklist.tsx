import { List, Typography } from '@material-ui/core';
import { ChecklistItem } from './ChecklistItem';
import { ServiceChecklist } from './rungChecklist';

/** Every gate of a promotion, grouped by service. */
export const PromotionChecklist = (props: { checklists: ServiceChecklist[] }) => (
  <>
    {props.checklists.map(({ service, items }) => (
      <div key={service} data-testid={`checklist-${service}`}>
        <Typography variant="subtitle2">{service}</Typography>
        <List dense disablePadding>
          {items.map(item => (
            <ChecklistItem key={item.gate} service={service} item={item} />
          ))}
        </List>
      </div>
    ))}
  </>
);
