import { createServiceFactory } from '@backstage/backend-plugin-api';
import { NotificationSendOptions, notificationService } from '@backstage/plugin-notifications-node';

/** A notification service that keeps what the plugin sends, in order (replicas may share one list). */
export function recordingNotifications(sent: NotificationSendOptions[]) {
  return createServiceFactory({
    service: notificationService,
    deps: {},
    factory: () => ({
      async send(notification: NotificationSendOptions) {
        sent.push(notification);
      },
    }),
  });
}
