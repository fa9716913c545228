import { ReactNode } from 'react';
import {
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
} from '@material-ui/core';
import Alert from '@material-ui/lab/Alert';
import { useSectionStyles } from './styles';

/**
 * The frame of a dialog that asks, then submits: the title, the dialog's own
 * content, the submit's error below it, and Cancel beside the confirm button.
 * Its test ids are `{testIdPrefix}-dialog`, `{testIdPrefix}-error` and
 * `{testIdPrefix}-confirm` (unless `confirmTestId` names another).
 */
export const ConfirmDialog = (props: {
  testIdPrefix: string;
  confirmTestId?: string;
  title: ReactNode;
  maxWidth?: 'sm' | 'md';
  children: ReactNode;
  /** The confirm button's label, and its label while the submit runs. */
  confirmLabel: string;
  busyLabel: string;
  busy: boolean;
  error?: string;
  /** The outcome is on screen: Cancel reads Close and the confirm button goes. */
  done?: boolean;
  /** Keeps confirm disabled besides while busy, e.g. until a required field is filled. */
  confirmDisabled?: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) => {
  const classes = useSectionStyles();
  const { testIdPrefix, done } = props;
  return (
    <Dialog
      open
      onClose={props.onClose}
      fullWidth
      maxWidth={props.maxWidth ?? 'sm'}
      data-testid={`${testIdPrefix}-dialog`}
    >
      <DialogTitle>{props.title}</DialogTitle>
      <DialogContent>
        {props.children}
        {props.error && (
          <Alert
            severity="error"
            className={classes.section}
            style={{ overflowWrap: 'anywhere' }}
            data-testid={`${testIdPrefix}-error`}
          >
            {props.error}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={props.onClose}>{done ? 'Close' : 'Cancel'}</Button>
        {!done && (
          <Button
            color="primary"
            variant="contained"
            disabled={props.busy || !!props.confirmDisabled}
            onClick={props.onConfirm}
            data-testid={props.confirmTestId ?? `${testIdPrefix}-confirm`}
          >
            {props.busy ? props.busyLabel : props.confirmLabel}
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
};
