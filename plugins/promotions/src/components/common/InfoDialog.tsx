import { ReactNode } from 'react';
import {
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
} from '@material-ui/core';

/** A dialog that only informs: its title, its content and Close. */
export const InfoDialog = (props: {
  testId: string;
  title: ReactNode;
  maxWidth?: 'sm' | 'md';
  children: ReactNode;
  onClose: () => void;
}) => (
  <Dialog
    open
    onClose={props.onClose}
    fullWidth
    maxWidth={props.maxWidth ?? 'sm'}
    data-testid={props.testId}
  >
    <DialogTitle>{props.title}</DialogTitle>
    <DialogContent>{props.children}</DialogContent>
    <DialogActions>
      <Button onClick={props.onClose}>Close</Button>
    </DialogActions>
  </Dialog>
);
