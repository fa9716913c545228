import { HumanDuration } from '@backstage/types';

export interface Config {
  /**
   * Configuration for the promotions plugins. Without `platformRepo` the
   * backend plugin starts idle: it logs a warning and its routes answer 503.
   */
  promotions?: {
    /** The GitHub repository holding Release records and Environments. */
    platformRepo: {
      /** Picks the `integrations.github` entry (token or GitHub App) by host. */
      host?: string;
      owner: string;
      repo: string;
      /** Default: main. */
      branch?: string;
      /**
       * The least time between two writes to GitHub, which octokit sends one
       * at a time: `writes` (default 1 second, GitHub's advice) and
       * `pullRequests`, writes that notify people: PRs, comments, merges
       * (default 3 seconds, octokit's). Lower them only where GitHub's
       * secondary limits allow it (e.g. a GitHub Enterprise Server whose
       * admins set them).
       */
      writePacing?: { writes?: HumanDuration; pullRequests?: HumanDuration };
      /**
       * How long a call GitHub answered with a 5xx waits before its retry:
       * octokit retries it 3 times, after 1, 4 and 9 times this. Default: 1
       * second (octokit's).
       */
      retryBackoff?: HumanDuration;
      /**
       * GitHub's secondary limit on writes (content-generating requests) for
       * the plugin's identity: every write waits until one more fits the
       * minute's and the hour's count, in sliding windows. Defaults: 80 a
       * minute, 500 an hour (GitHub's documented figures). The auto-promoter's
       * writes wait behind people's. Counted per backend process.
       */
      writeBudget?: { perMinute?: number; perHour?: number };
      /**
       * Which Release PRs get labels (`promotion`, `stage:<stage>`,
       * `product:<team>-<product>`). Labelling is a write of its own, one of
       * GitHub's 500 an hour. Default: 'requested', the PRs a person asked
       * for (a request, a rollback); the auto-promoter's go without, as a
       * rebuild opens them by the hundred. 'all' labels every PR; 'none' none.
       */
      pullRequestLabels?: 'all' | 'requested' | 'none';
    };
    /** Default: gitops/releases. */
    releasesPath?: string;
    /** Default: gitops/environments. */
    environmentsPath?: string;
    /**
     * How the platform names a Service's image. A Service's image is found by
     * the digest its Release names, whatever the name; the name only tells
     * what runs or is injected instead of that digest.
     */
    images?: {
      /**
       * A template over {registry}, {team}, {product} and {service}. Default:
       * the seeds' '{registry}/team-{team}/{product}-{service}'. An image whose
       * last path segment is the Service is the Service's too.
       */
      repository?: string;
      /** The registry host {registry} stands for. Default: any host. */
      registry?: string;
    };
    /**
     * How the plugin finds a Product's ArgoCD Applications: by these labels,
     * which the ApplicationSet's template sets on each Application it
     * generates (one selector per Product, or one for all). Each stage's
     * Application is then the one named `<team>-<product>-<stage>`.
     */
    applications?: {
      labels?: {
        /** Default: refplat.org/team. */
        team?: string;
        /** Default: refplat.org/product. */
        product?: string;
      };
    };
    /**
     * The ladder, lowest first. Default: [dev, test, uat, staging, prod].
     * An entry may be an object to give the stage a soak time: the minimum
     * time a digest must have been healthy there before it may be promoted
     * out of it, e.g. `{ name: staging, soakTime: { minutes: 30 } }`.
     */
    stages?: Array<string | { name: string; soakTime?: HumanDuration }>;
    approval?: {
      /**
       * Stages whose promotions wait for a release-approver. Default: [prod].
       * @visibility frontend
       */
      stages?: string[];
      /** Group entity refs whose members may approve. Default: [group:default/release-approvers]. */
      approvers?: string[];
      /** Whoever requested a promotion may not approve it. Default: true. */
      requireDistinctApprover?: boolean;
      /**
       * Per approval stage, how many distinct release-approvers (never the
       * requester) must approve, e.g. `{prod: 2}`. Default 1. A Product's
       * System may override it per stage with the annotation
       * `refplat.org/approval-quorum: prod=2`.
       */
      quorum?: { [stage: string]: number };
      /**
       * A Product's own approvers, the Groups its System names in the
       * annotation `refplat.org/approvers` (comma-separated refs): `add`
       * (default) lets them approve besides `approvers`, `replace` instead of
       * them (a System naming no valid Group keeps `approvers`). Bad
       * annotation entries are ignored and logged.
       */
      productApprovers?: 'add' | 'replace';
    };
    /**
     * Freeze windows: promotions into `stages` are refused while one is on,
     * and the Gate does not merge them until it ends (a release-approver may
     * override with a reason). `schedule` is weekly ("Fri 16:00 – Mon 08:00")
     * or a date range whose both days are frozen whole ("2026-12-20 –
     * 2027-01-04"), in `timezone` (IANA, default UTC; DST is handled). A
     * weekly window ending when it starts ("Mon 00:00 – Mon 00:00") is always on.
     */
    freezes?: Array<{
      name: string;
      stages: string[];
      schedule: string;
      timezone?: string;
      reason: string;
      /** The Products it freezes (`team/product`, e.g. alpha/blog); every Product when left out. */
      products?: string[];
    }>;
    /**
     * The incident gate: while a Product has an open incident (reported on
     * the events topic `promotions.incidents` or `POST /incidents` as
     * `{product, id, state: open|resolved, url}`), promotions into `stages`
     * are blocked (`mode: block`, the default; a release-approver may
     * override with a reason), or need an approval from a member of one of
     * `commanders` besides the usual approvals (`mode: approval`).
     * Without this key incidents are not taken.
     */
    incidents?: {
      /** Default: [prod]. */
      stages?: string[];
      /** Default: block. */
      mode?: 'block' | 'approval';
      /** Group refs of the incident commanders. Default: [group:default/incident-commanders]. */
      commanders?: string[];
    };
    permissions?: {
      /**
       * Requests, rollbacks and holds are for the Product's owners (the owner
       * of the System annotated with it) and the release-approvers. Default:
       * true. false leaves them to the permission policy alone; lifting a
       * hold at an approval stage still needs a release-approver.
       */
      requireOwnership?: boolean;
    };
    /**
     * Health source: the ArgoCD REST API. Either one instance (`baseUrl` and
     * `token`) or several (`instances`, e.g. one hub per region); the ladder
     * looks for each Application in every instance.
     *
     * Precedence: `promotions.kubernetes.clusters`, then `promotions.argocd`.
     * When neither is set, the plugin borrows the instances other plugins
     * already have: first the community ArgoCD plugin's
     * `argocd.appLocatorMethods` (`type: config` instances with a `token`;
     * username/password instances are skipped), then the Kubernetes
     * plugin's `kubernetes.clusterLocatorMethods` (`type: config` clusters
     * with `authProvider: serviceAccount` and a `serviceAccountToken`). The
     * start-up log says which one is used and why others were skipped.
     */
    argocd?: {
      baseUrl?: string;
      /** @visibility secret */
      token?: string;
      /** Link target for the ArgoCD UI, when it differs from baseUrl. */
      uiUrl?: string;
      instances?: Array<{
        name: string;
        baseUrl: string;
        /** @visibility secret */
        token: string;
        uiUrl?: string;
      }>;
    };
    /**
     * Health source: Application and Rollout custom resources read through
     * the Kubernetes API (used instead of `argocd` when `clusters` is set;
     * see `argocd` for the precedence).
     */
    kubernetes?: {
      /**
       * Namespace of the ArgoCD Applications on every cluster without its
       * own `applicationNamespace`, including clusters borrowed from
       * `kubernetes.clusterLocatorMethods`. Default: argocd.
       */
      applicationNamespace?: string;
      clusters?: Array<{
        name: string;
        /** The API server URL. */
        url: string;
        /** @visibility secret */
        serviceAccountToken?: string;
        /** PEM CA bundle for the API server. */
        caData?: string;
        skipTLSVerify?: boolean;
        /** Namespace of the ArgoCD Applications. Default: `kubernetes.applicationNamespace`, else argocd. */
        applicationNamespace?: string;
      }>;
    };
    /** How long a ladder read stays fresh in the cache. Default: 5 seconds. */
    cacheTtl?: HumanDuration;
    /** When the ladder calls an in-progress deployment stuck. */
    diagnosis?: {
      /** OutOfSync this long after a Release changed. Default 5 minutes. */
      syncStuck?: HumanDuration;
      /** A canary paused this long beyond its configured pause. Default 10 minutes. */
      canaryStuck?: HumanDuration;
      /** A promotion waiting this long for approval. Default 1 day. */
      approvalWait?: HumanDuration;
      /** Degraded this long. Default 0 (at once). */
      degradedStuck?: HumanDuration;
    };
    gate?: {
      /**
       * Whether the Gate polls every live promotion on its schedule (`frequency`). Default true.
       * Off, the Gate looks at a promotion only when something happens to it (its request, an
       * approval, a webhook delivery, a health event): one waiting for its stage below merges
       * only if such an event comes.
       */
      enabled?: boolean;
      /**
       * How often the Gate polls every live promotion. Default 30 seconds, or
       * 5 minutes when webhooks are enabled (`webhooks.enabled`), where the poll
       * only catches deliveries that were missed.
       */
      frequency?: HumanDuration;
      /**
       * How long a request opening a promotion's PR is trusted to make its
       * next step on GitHub (the lease is renewed after each); after that the
       * write queue's task, the Gate or a retry on any replica reconciles it
       * from GitHub. Default 30 seconds.
       */
      openingLease?: HumanDuration;
      /**
       * How long a `promotions/*` branch with no live promotion and no open
       * PR is left alone before the Gate deletes it. Default 10 minutes.
       */
      orphanGracePeriod?: HumanDuration;
    };
    /**
     * The auto-promoter: moves healthy digests up one rung per run below the
     * first approval stage. Products whose System has the annotation
     * `refplat.org/auto-promote: "false"` are left alone.
     */
    autoPromote?: {
      /** Default: false (opt-in). The Gate (`gate.enabled`) is on by default. */
      enabled?: boolean;
      frequency?: HumanDuration;
      /**
       * Fleet mode (opt-in, off by default): the Products one run moves up the
       * same rung share a Release PR, so a fleet-wide rebuild climbs within
       * GitHub's write limits. A person's request is always a PR of its own;
       * stages that need an approval are never batched. See docs/auto-promoter.md.
       */
      fleet?: {
        /** Default: false. */
        enabled?: boolean;
        /** The most Products in one PR. Default 50. */
        maxProducts?: number;
        /** `none` (default): any Products; `team`: one team's Products per PR. */
        groupBy?: 'none' | 'team';
      };
    };
    /**
     * Delivery metrics (`GET /metrics`), from the platform branch's history of
     * Release records: each new commit is read once (one GitHub request).
     */
    metrics?: {
      /** Default: true. */
      enabled?: boolean;
      /** How often new commits on the platform branch are read. Default 1 minute. */
      frequency?: HumanDuration;
      /** How many commits back from the head the first run reads. Default 500. */
      backfillCommits?: number;
      /**
       * A prod change replaced (rolled back or fixed forward) within this
       * time counts as a failed change. Default 1 day.
       */
      failureWindow?: HumanDuration;
    };
    /**
     * Stuck notifications: a Product's owners hear of each stuck Service once
     * per stall (again if it is still stuck a week later), across replicas.
     * They come from a scheduled sweep over every Product's ladder, from health
     * events (`healthStream`) and from the Gate's runs, never from page views.
     */
    stuckNotifications?: {
      /** Default: true. */
      enabled?: boolean;
      /** How often one replica sweeps every Product's ladder for stalls. Default 5 minutes. */
      frequency?: HumanDuration;
    };
    /**
     * GitHub webhooks, received by `@backstage/plugin-events-backend-module-github`
     * at `/api/events/http/github` and verified with `events.modules.github.webhookSecret`:
     * a push to the platform repo's branch refreshes the affected Products at once,
     * a pull request closed or merged by hand and a commit status move their
     * promotions at once.
     */
    webhooks?: {
      /**
       * Default: true when `events.modules.github.webhookSecret` is set. Enabled,
       * the Gate's default poll becomes 5 minutes (see `gate.frequency`).
       */
      enabled?: boolean;
    };
    /**
     * Health events: the backend follows ArgoCD's application event stream
     * (`/api/v1/stream/applications`) or, with `promotions.kubernetes`, a watch on
     * the Application resources, one connection per instance or cluster for the
     * whole backend. A change of an Application's health, sync status, synced
     * revision, operation phase or images refreshes its Product's open ladders at
     * once instead of at their next poll. Lost connections are retried with
     * exponential backoff (1 s doubling to 60 s, with jitter).
     */
    healthStream?: {
      /** Default: true. */
      enabled?: boolean;
    };
    /**
     * Provenance (seeds 000 and 002): each digest on the ladder shows who
     * signed it and the SLSA provenance's source commit and builder, read from
     * the registry (OCI distribution API) and verified with Sigstore's
     * libraries; the built-in `provenance` guard refuses what is not verified
     * in `enforce`. Off until configured.
     */
    provenance?: {
      /** `enforce` refuses, `warn` shows and lets through, `off` reads nothing. Default: off. */
      mode?: 'enforce' | 'warn' | 'off';
      /** The stages a digest must be verified to enter. Default: every stage. */
      stages?: string[];
      /**
       * The Products checked, as `team/product` (e.g. `alpha/shop`), to turn
       * provenance on Product by Product. Default: every Product.
       */
      products?: string[];
      registry?: {
        /** The registry's base URL, e.g. https://registry.refplat.org (its `/v2/` API). */
        url: string;
        username?: string;
        /** @visibility secret */
        password?: string;
        /** Requests in flight at once. Default: 4. */
        concurrency?: number;
        /** Each request's limit. Default: 10 seconds. */
        timeout?: HumanDuration;
        /**
         * Hosts (`host` or `host:port`) besides the registry's own that may
         * serve its Bearer tokens or what it redirects to, e.g. its blob
         * storage. Nothing else is asked: the credentials never leave for a
         * host not named here, and only over https (plain http on loopback
         * only). Default: none.
         */
        allowedHosts?: string[];
      };
      /**
       * Sigstore's trusted root (trusted_root.json), one of: `file`, e.g. a
       * private Sigstore's; `url`; or `tuf`, the public-good instance's read
       * through its TUF repository with @sigstore/tuf (`true` for the defaults).
       */
      trustedRoot?: {
        file?: string;
        url?: string;
        tuf?:
          | boolean
          | {
              /** Default: https://tuf-repo-cdn.sigstore.dev */
              mirror?: string;
              /** Where TUF metadata is cached. Default: a directory under the OS's temp dir. */
              cachePath?: string;
              /** The trusted root @sigstore/tuf embeds as of its release, nothing fetched. Default: false. */
              offline?: boolean;
            };
      };
      /** The build-sign workflow's keyless identity; `{team}`, `{product}`, `{service}` are filled in. */
      signer?: {
        /** Default: https://token.actions.githubusercontent.com */
        issuer?: string;
        /** e.g. https://github.com/acme/{product}/.github/workflows/build-sign.yml@refs/heads/main */
        identity: string;
      };
      /** The isolated provenance workflow's keyless identity, a template likewise. */
      builder?: {
        /** Default: https://token.actions.githubusercontent.com */
        issuer?: string;
        identity: string;
        /**
         * The SLSA `runDetails.builder.id` values accepted, templates likewise.
         * A statement naming another builder is `failed`. Default: [identity].
         */
        ids?: string[];
      };
      /** What the SLSA provenance must name as the build's source. */
      source?: {
        /**
         * The source repository, a template over {team}, {product}, {service},
         * e.g. https://github.com/acme/{product}. A statement naming another is
         * `failed`. Default: the signer identity's repository, where it is a
         * GitHub workflow's (https://github.com/<owner>/<repo>/.github/workflows/…).
         */
        repository?: string;
      };
      /**
       * Whether a release-approver's override lifts `enforce`'s refusal of a
       * digest (break-glass). Default: false, as admission verifies too and
       * would refuse the digest in the cluster. When true, the override is
       * recorded as any other: on the PR and in the audit trail, who and why.
       */
      overridable?: boolean;
      /** How long a result that is not verified stands before the registry is asked again. Default: 1 minute. */
      recheck?: HumanDuration;
      /**
       * How long a verified result stands before a view reads the registry
       * again behind it (the cell shows the kept result meanwhile; a signature
       * gone or replaced then fails it). The Gate reads afresh before every
       * merge regardless. Default: 1 day.
       */
      revalidate?: HumanDuration;
    };
  };
}
