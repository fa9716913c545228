import { NotificationClaimStore } from '@refplat/plugin-promotions-node';

/**
 * An in-memory `NotificationClaimStore`: a key claimed at a time is claimed until `ttlMs` after it.
 *
 * @public
 */
export class InMemoryNotificationClaimStore implements NotificationClaimStore {
  private readonly claimedAt = new Map<string, number>();

  constructor(private readonly ttlMs: number) {}

  async claim(key: string, at: Date): Promise<boolean> {
    const previous = this.claimedAt.get(key);
    if (previous !== undefined && previous > at.getTime() - this.ttlMs) return false;
    this.claimedAt.set(key, at.getTime());
    return true;
  }
}
