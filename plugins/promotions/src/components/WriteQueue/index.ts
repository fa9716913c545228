export { WriteQueueNotice } from './WriteQueueNotice';
