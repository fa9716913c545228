export interface Config {
  /**
   * The frontend reads these backend settings (declared in full by
   * @refplat/plugin-promotions-backend) so it offers only what the backend
   * will accept: no button whose click answers 403 or 409.
   */
  promotions?: {
    ui?: {
      /**
       * How often an open ladder or history reads again without a signal
       * (canary progress is only in ArgoCD), in seconds. Default: 10.
       * @visibility frontend
       */
      refreshSeconds?: number;
    };
    approval?: {
      /**
       * Whoever requested a promotion may not approve it. Default: true.
       * @visibility frontend
       */
      requireDistinctApprover?: boolean;
    };
    permissions?: {
      /**
       * Requests, rollbacks and holds are for the Product's owners and the
       * release-approvers. Default: true.
       * @visibility frontend
       */
      requireOwnership?: boolean;
    };
  };
}
