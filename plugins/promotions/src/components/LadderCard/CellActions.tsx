import { MouseEvent, useState } from 'react';
import { IconButton, ListItemText, Menu, MenuItem, Tooltip } from '@material-ui/core';
import MoreVertIcon from '@material-ui/icons/MoreVert';
import { LadderServiceCell, ProductRef } from '@refplat/plugin-promotions-common';
import { useChangeAccess } from '../../access/useChangeAccess';
import { FreezeDialog } from '../Holds/FreezeDialog';

/**
 * A cell's less frequent actions, each with its label, behind one "⋮":
 * Freeze (not on the first stage, where nothing is promoted into; disabled
 * with the reason for those who may not) and copying the full digest.
 */
export const CellActions = (props: {
  product: ProductRef;
  stage: string;
  service: string;
  cell: LadderServiceCell;
  /** Nothing is ever promoted into the first stage: nothing to freeze there. */
  freezable: boolean;
  onChanged: () => void;
}) => {
  const { product, stage, service, cell } = props;
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [freezing, setFreezing] = useState(false);
  const access = useChangeAccess(product, 'place-hold');
  const key = `${stage}-${service}`;
  const canFreeze = props.freezable && !cell.hold;
  if (!canFreeze && !cell.digest) return null;
  const close = () => setAnchor(null);
  const label = `Actions for ${service} in ${stage}`;
  return (
    <>
      <Tooltip title={label}>
        <IconButton
          size="small"
          aria-label={label}
          aria-haspopup="true"
          onClick={(event: MouseEvent<HTMLElement>) => setAnchor(event.currentTarget)}
          data-testid={`actions-${key}`}
        >
          <MoreVertIcon fontSize="small" />
        </IconButton>
      </Tooltip>
      <Menu anchorEl={anchor} open={!!anchor} onClose={close} PaperProps={{ style: { maxWidth: 360 } }}>
        {canFreeze && (
          <MenuItem
            disabled={!access.allowed}
            onClick={() => {
              close();
              setFreezing(true);
            }}
            data-testid={`freeze-${key}`}
          >
            <ListItemText
              primary={`Freeze ${service} in ${stage}…`}
              secondary={access.allowed ? 'Keep promotions and the auto-promoter out' : access.reason}
              secondaryTypographyProps={{ style: { whiteSpace: 'normal' } }}
            />
          </MenuItem>
        )}
        {cell.digest && (
          <MenuItem
            onClick={() => {
              close();
              window.navigator.clipboard?.writeText(cell.digest!);
            }}
            data-testid={`copy-digest-${key}`}
          >
            <ListItemText
              primary="Copy digest"
              secondary={cell.digest}
              secondaryTypographyProps={{ style: { overflowWrap: 'anywhere' } }}
            />
          </MenuItem>
        )}
      </Menu>
      {freezing && (
        <FreezeDialog
          product={product}
          stage={stage}
          service={service}
          onFrozen={props.onChanged}
          onClose={() => setFreezing(false)}
        />
      )}
    </>
  );
};
