export { ApprovalsInbox } from './ApprovalsInbox';
export { ApprovalsPage } from './ApprovalsPage';
