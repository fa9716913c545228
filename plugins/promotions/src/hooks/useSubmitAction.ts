import { useState } from 'react';
import { errorMessage } from '../components/common/errorMessage';

export interface SubmitAction<T> {
  /** Runs the action; call it from the confirm button. */
  submit: () => Promise<void>;
  /**
   * From a submit until it fails. A success leaves it set: the dialog then
   * shows the outcome or closes, and there is nothing to submit again.
   */
  busy: boolean;
  /** Why the last submit failed, in the backend's own words. */
  error?: string;
  /** What the action returned, once it succeeded. */
  result?: T;
}

/**
 * A dialog's one submit: busy while `action` runs, its result once it
 * succeeds, and its error when it fails (the user may then try again).
 * `onSuccess` runs after the result is kept; an error it throws is shown
 * like the action's own.
 */
export function useSubmitAction<T>(
  action: () => Promise<T>,
  onSuccess?: () => void,
): SubmitAction<T> {
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<T>();
  const [error, setError] = useState<string>();

  const submit = async () => {
    setBusy(true);
    setError(undefined);
    try {
      const value = await action();
      setResult(value);
      onSuccess?.();
    } catch (e) {
      setError(errorMessage(e));
      setBusy(false);
    }
  };

  return { submit, busy, error, result };
}
