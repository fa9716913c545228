export { DeliveryMetricsView } from './DeliveryMetricsView';
