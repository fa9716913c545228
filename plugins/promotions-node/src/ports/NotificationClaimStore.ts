/**
 * Notifications that must be sent once however many replicas see their
 * cause: the replica whose claim of the key takes effect sends it. A claim
 * holds for the store's time to live; after it, the key can be claimed again.
 *
 * @public
 */
export interface NotificationClaimStore {
  /** True for exactly one caller per key within the time to live, on any replica. */
  claim(key: string, at: Date): Promise<boolean>;
}
