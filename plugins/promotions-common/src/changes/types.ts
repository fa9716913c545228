// Type aliases, not interfaces: the backend caches these as JSON values.

/**
 * One source commit between two digests of a service.
 *
 * @public
 */
export type ChangeCommit = {
  sha: string;
  /** The first line of the commit message. */
  message: string;
  author: string;
  url: string;
};

/**
 * What a promotion would ship for one service.
 *
 * @public
 */
export type ServiceChange = {
  service: string;
  /** The digest in the lower stage: what a promotion would ship. */
  from?: string;
  /** The digest in the upper stage now. */
  to?: string;
  changed: boolean;
  /** The newest source commits between the two digests, newest first, where the Releases record them. */
  commits?: ChangeCommit[];
  /** Older commits of the range that `commits` leaves out (absent when none are). */
  omittedCommits?: number;
  /** GitHub's comparison of the two source revisions. */
  compareUrl?: string;
  /** Said plainly when some or all of the commits cannot be shown. */
  note?: string;
};

/**
 * `GET /products/{team}/{product}/changes?from=&to=`.
 *
 * @public
 */
export type StageChanges = {
  fromStage: string;
  toStage: string;
  items: ServiceChange[];
};
