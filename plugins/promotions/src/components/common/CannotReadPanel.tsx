import { ErrorPanel } from '@backstage/core-components';
import { errorMessage } from './errorMessage';

/**
 * A read that failed, with the backend's reason in the title: Backstage's
 * ErrorPanel otherwise shows only the title ("Cannot read the ladder") and
 * folds the reason away under "Request failed with 503".
 */
export function CannotReadPanel(props: { what: string; error: unknown }) {
  const error = props.error instanceof Error ? props.error : new Error(String(props.error));
  return <ErrorPanel error={error} title={`Cannot read ${props.what}: ${errorMessage(props.error)}`} />;
}
