export { StuckList } from './StuckList';
