import {
  AuditorServiceCreateEventOptions,
  coreServices,
  createServiceFactory,
} from '@backstage/backend-plugin-api';
import { JsonObject } from '@backstage/types';

export interface Recorded {
  eventId: string;
  severityLevel?: string;
  /** The Authorization header of the request the event came with: who acted. */
  by?: string;
  status: 'initiated' | 'succeeded' | 'failed';
  meta?: JsonObject;
  error?: string;
}

/** An auditor that keeps what the plugin tells it, in order. */
export function recordingAuditor(events: Recorded[]) {
  return createServiceFactory({
    service: coreServices.auditor,
    deps: {},
    factory: () => ({
      async createEvent(options: AuditorServiceCreateEventOptions) {
        const base = {
          eventId: options.eventId,
          severityLevel: options.severityLevel,
          by: options.request?.headers.authorization,
        };
        events.push({ ...base, status: 'initiated' });
        return {
          async success(params?: { meta?: JsonObject }) {
            events.push({ ...base, status: 'succeeded', meta: params?.meta });
          },
          async fail(params: { meta?: JsonObject; error: Error }) {
            events.push({ ...base, status: 'failed', meta: params.meta, error: params.error.name });
          },
        };
      },
    }),
  });
}
