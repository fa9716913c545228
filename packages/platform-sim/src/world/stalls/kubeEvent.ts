import { isoSeconds } from '../identifiers';
import { apiVersionOf, KubeEvent, ResourceRef } from '../liveObject';

/** What a component reported about an object, and how often. */
export interface EventReport {
  type: 'Normal' | 'Warning';
  reason: string;
  message: string;
  /** The reporting component (source.component): replicaset-controller, default-scheduler, kubelet. */
  component: string;
  /** The node, for what a kubelet reports. */
  host?: string;
  /** Which container the event is about (involvedObject.fieldPath). */
  fieldPath?: string;
  firstAt: number;
  lastAt: number;
  count: number;
}

/**
 * A core/v1 Event about `involved`. Its name is the object's name and the first
 * occurrence in nanoseconds as hex, as client-go's recorder names events; a
 * repeated event keeps its name and counts up.
 */
export function kubeEvent(
  involved: ResourceRef,
  report: EventReport,
  resourceVersion: string,
): KubeEvent {
  const nanos = BigInt(report.firstAt) * BigInt(1_000_000) + BigInt(report.reason.length);
  const source = report.host
    ? { component: report.component, host: report.host }
    : { component: report.component };
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: {
      name: `${involved.name}.${nanos.toString(16)}`,
      namespace: involved.namespace,
      uid: `${involved.uid.slice(0, 24)}${nanos.toString(16).slice(-12).padStart(12, '0')}`,
      resourceVersion,
      creationTimestamp: isoSeconds(report.firstAt),
    },
    involvedObject: {
      apiVersion: apiVersionOf(involved),
      kind: involved.kind,
      name: involved.name,
      namespace: involved.namespace,
      uid: involved.uid,
      resourceVersion,
      ...(report.fieldPath ? { fieldPath: report.fieldPath } : {}),
    },
    reason: report.reason,
    message: report.message,
    type: report.type,
    count: report.count,
    firstTimestamp: isoSeconds(report.firstAt),
    lastTimestamp: isoSeconds(report.lastAt),
    source,
    reportingComponent: report.component,
    reportingInstance: report.host ?? '',
    eventTime: null,
  };
}
