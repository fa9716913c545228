import { List, Typography } from '@material-ui/core';
import { ChecklistItem } from './ChecklistItem';
import { ServiceChecklist } from './rungChecklist';

/** The gates of a promotion, grouped by service; the passing ones counted when left out. */
export const PromotionChecklist = (props: {
  checklists: ServiceChecklist[];
  from: string;
  to: string;
}) => (
  <>
    {props.checklists.map(({ service, items, passingLeftOut }) => (
      <div key={service} data-testid={`checklist-${service}`}>
        <Typography variant="subtitle2">{service}</Typography>
        <List dense disablePadding>
          {items.map(item => (
            <ChecklistItem key={item.gate} service={service} item={item} from={props.from} to={props.to} />
          ))}
        </List>
        {passingLeftOut > 0 && (
          <Typography variant="caption" color="textSecondary">
            {passingLeftOut} other check{passingLeftOut === 1 ? '' : 's'} pass
          </Typography>
        )}
      </div>
    ))}
  </>
);
