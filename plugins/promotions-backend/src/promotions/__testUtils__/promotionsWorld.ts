import { ConfigReader } from '@backstage/config';
import { Entity } from '@backstage/catalog-model';
import { GuardVerdict, Ladder, LadderStage, PRODUCT_ANNOTATION } from '@refplat/plugin-promotions-common';
import { HoldStore, NewPromotion } from '@refplat/plugin-promotions-node';
import {
  FakeDirectory,
  FakeHealthSource,
  gitBlobShaOf,
  InMemoryAutoDecisionStore,
  InMemoryHealthySinceStore,
  InMemoryHoldStore,
  InMemoryPlatformRepo,
  InMemoryPromotionStore,
  ManualClock,
} from '@refplat/plugin-promotions-node/testUtils';
import { catalogOf, mockCache, mockLogger, serviceAuth } from '../../__testUtils__/lightServices';
import { readPromotionsConfig } from '../../config';
import { LIVE_STATUSES } from '../../database/PromotionStore';
import { PromotionGuards } from '../../guards/PromotionGuards';
import { LadderAnnotations } from '../../ladder/LadderAnnotations';
import { LadderService, LadderViewParts } from '../../ladder/LadderService';
import { environmentPath, releasePath } from '../../ladder/readProductRecords';
import { parseRelease } from '../../releases/records';
import { ApprovalRights } from '../ApprovalRights';
import { ApprovalService } from '../ApprovalService';
import { AutoPromoter } from '../AutoPromoter';
import { DigestAges } from '../DigestAges';
import { Gate } from '../Gate';
import { PromotionOpener } from '../PromotionOpener';
import { PromotionReconciler } from '../PromotionReconciler';
import { PromotionCloser } from '../PromotionCloser';
import { PromotionService } from '../PromotionService';
import { PromotionQueue } from '../PromotionQueue';
import { RequestSnapshots } from '../RequestSnapshot';
import { StageHistory } from '../StageHistory';
import { branchName, promotionFingerprint } from '../pullRequestText';

export const SHOP = { team: 'alpha', product: 'shop' };
export const STAGES = ['dev', 'uat', 'prod'];
/** A digest of 64 times `c`. */
export const digest = (c: string) => `sha256:${c.repeat(64)}`;

export function releaseFile(
  stage: string,
  services: Record<string, string>,
  sources: Record<string, { repository: string; revision: string }> = {},
): string {
  return `apiVersion: platform.refplat.org/v1beta1
kind: Release
metadata:
  name: alpha-shop-${stage}
spec:
  environmentRef: alpha-shop-${stage}
  services:
${Object.entries(services)
  .map(([service, d]) => {
    const source = sources[service];
    const recorded = source ? `      source:\n        repository: ${source.repository}\n        revision: ${source.revision}\n` : '';
    return `    ${service}:\n      digest: ${d}\n${recorded}`;
  })
  .join('')}`;
}

/** The Environment record of alpha/shop's stage, declaring `services`. */
export function environmentFile(stage: string, services: string[]): string {
  return `apiVersion: platform.refplat.org/v1beta1
kind: Environment
metadata:
  name: alpha-shop-${stage}
spec:
  services:
${services.map(service => `    - name: ${service}\n`).join('')}`;
}

/** The catalog's System of a Product (`team/product`), with more annotations if given. */
export function productSystem(product: string, annotations: Record<string, string> = {}): Entity {
  return {
    apiVersion: 'backstage.io/v1alpha1',
    kind: 'System',
    metadata: { name: product.split('/')[1], annotations: { [PRODUCT_ANNOTATION]: product, ...annotations } },
  };
}

/** What a stage's cell looks like on the ladder the Gate reads: the verdict of the pure health rules. */
export type CellVerdict = 'healthy' | 'progressing' | 'unhealthy';

/**
 * alpha/shop on an in-memory platform repo (dev names `b`, uat and prod `a`
 * unless `releases` says otherwise; one service `api`; each stage's
 * Environment declares the services its Release names), an in-memory store,
 * a clock that stands at 2026-01-01T00:00Z, and the opener and reconciler
 * the Gate uses, wired as the composition root (src/wiring) wires them. `ladder` is a ladder
 * built by hand from the Release records and a verdict per stage (`health`);
 * `ladderService()` builds real ones, from the repo and what `argo` runs.
 * The other stores (holds, healthy-since times, auto-promoter decisions) are
 * there for the services that need them.
 */
export function promotionsWorld(
  options: {
    config?: object;
    releases?: Record<string, Record<string, string>>;
    /** The platform repo deletes merged PRs' branches itself. */
    deleteBranchOnMerge?: boolean;
  } = {},
) {
  const clock = new ManualClock('2026-01-01T00:00:00Z');
  const repo = new InMemoryPlatformRepo({ clock, deleteBranchOnMerge: options.deleteBranchOnMerge });
  const store = new InMemoryPromotionStore({ clock });
  const directory = new FakeDirectory().setName('user:default/alice', 'Alice Developer');
  const logger = mockLogger();
  const config = readPromotionsConfig(
    new ConfigReader({
      promotions: { platformRepo: { owner: 'platform', repo: 'gitops' }, stages: STAGES, ...options.config },
    }),
  );
  const releases = options.releases ?? {
    dev: { api: digest('b') },
    uat: { api: digest('a') },
    prod: { api: digest('a') },
  };
  repo.commit(
    Object.fromEntries(
      Object.entries(releases).flatMap(([stage, services]) => [
        [releasePath(config, SHOP, stage), releaseFile(stage, services)],
        [environmentPath(config, SHOP, stage), environmentFile(stage, Object.keys(services))],
      ]),
    ),
    { message: 'Seed alpha/shop' },
  );
  const opener = new PromotionOpener({ config, store, writer: repo, logger, names: directory, clock });
  const reconciler = new PromotionReconciler({ config, store, writer: repo, opener, logger, clock });

  let requested = 0;

  /** Each stage's health, as the ladder judges it; healthy where not said. */
  const health: Record<string, CellVerdict> = {};

  /** The ladder the Gate reads: the Release records at the base branch's head, with `health`. */
  const ladder = async (): Promise<Ladder> => {
    const stages = STAGES.map(name => {
      const path = releasePath(config, SHOP, name);
      const text = repo.fileAt(repo.baseBranch, path);
      const services = text ? parseRelease(text).services : {};
      const verdict = health[name] ?? 'healthy';
      return {
        name,
        requiresApproval: config.approval.stages.includes(name),
        release: { path, blobSha: text === undefined ? undefined : gitBlobShaOf(text) },
        services: Object.fromEntries(
          Object.entries(services).map(([service, d]) => [
            service,
            { digest: d, healthy: verdict === 'healthy', verdict, reasons: verdict === 'healthy' ? [] : [`${service} is ${verdict}`] },
          ]),
        ),
      } as unknown as LadderStage;
    });
    return { ...SHOP, stages } as unknown as Ladder;
  };

  /**
   * Records a promotion as PromotionService.request does (with the opener's
   * lease) and, unless `open: false`, has the opener open its PR.
   */
  const request = async (
    toStage: string,
    services: Record<string, string>,
    how: { open?: boolean; id?: string; kind?: 'promotion' | 'rollback'; requestedBy?: string } = {},
  ) => {
    const id = how.id ?? `p${String(++requested).padStart(7, '0')}-0000-4000-8000-000000000000`;
    const path = releasePath(config, SHOP, toStage);
    const base = await repo.readFile(path, repo.baseBranch);
    const fromStage = STAGES[STAGES.indexOf(toStage) - 1];
    const requiresApproval = config.approval.stages.includes(toStage);
    const promotion: NewPromotion = {
      id,
      ...SHOP,
      fromStage,
      toStage,
      services,
      previousServices: parseRelease(base.text).services,
      fingerprint: promotionFingerprint(SHOP.team, SHOP.product, toStage, services),
      kind: how.kind ?? 'promotion',
      status: requiresApproval ? 'awaiting-approval' : 'open',
      requestedBy: how.requestedBy ?? 'user:default/alice',
      baseBlobSha: base.blobSha,
      branch: branchName({ ...SHOP, toStage, id }),
      leaseExpiresAt: new Date(clock.now().getTime() + config.gate.openingLeaseSeconds * 1000).toISOString(),
    };
    const { record } = await store.insertLive(promotion, promotion.requestedBy);
    if (how.open === false) return record;
    return opener.open(record, (await repo.headCommit())!, requiresApproval);
  };

  const argo = new FakeHealthSource();
  const holds = new InMemoryHoldStore({ clock });
  const healthySince = new InMemoryHealthySinceStore();
  const autoDecisions = new InMemoryAutoDecisionStore();
  /** The ladders' sources: the fake repo and `argo` (see FakeHealthSource.runs), at the world's clock. */
  const ladderSources = { config, repo, healthSource: argo, logger, clock };
  /**
   * A real views' LadderService showing the live promotions; `parts` adds
   * what the composition root adds (say, an `annotate` or `digestAges`).
   */
  const ladderService = (parts: LadderViewParts = {}) =>
    LadderService.forViews(ladderSources, {
      livePromotions: async product =>
        (await store.listForProduct(product.team, product.product, 50)).filter(p => LIVE_STATUSES.includes(p.status)),
      ...parts,
    });

  /** Every stage's Application runs, healthy, what its Release record at the base branch's head says. */
  const runAsReleased = () => {
    const head = repo.branchHead()!;
    for (const stage of config.stages) {
      const text = repo.fileAt(head, releasePath(config, SHOP, stage));
      if (text) argo.runs(SHOP, stage, parseRelease(text).services, head);
    }
  };

  /** The digests a stage's Release record names at the base branch's head. */
  const released = (stage: string, product = SHOP) => {
    const text = repo.fileAt(repo.baseBranch, releasePath(config, product, stage));
    return text === undefined ? undefined : parseRelease(text).services;
  };

  /** Which digest is older, from the Release records' history in the fake repo, as the composition root judges it. */
  const digestAges = () =>
    new DigestAges({
      stages: config.stages,
      timelines: new StageHistory({ config, writer: repo, store, cache: mockCache() }),
      cache: mockCache(),
    });

  /** What `onChange` was told, in order. */
  const changed: string[] = [];

  /** A Gate on the hand-built `ladder` (the verdicts of `health`), with `guards` and `ladderSeen` when given. */
  const gate = (guards?: PromotionGuards, ladderSeen?: (seen: Ladder) => Promise<void>) =>
    new Gate({
      config,
      store,
      writer: repo,
      files: repo,
      ladder: { getLadder: ladder },
      opener,
      reconciler,
      guards,
      logger,
      names: directory,
      clock,
      ladderSeen,
    });

  /**
   * The ladder the services read in the composition root: annotated with holds,
   * healthy-since times (observed at the clock's time) and the auto-promoter's
   * decisions, and judging digest ages from the repo's history.
   */
  const annotatedLadderService = () => {
    const annotations = new LadderAnnotations(
      {
        holds,
        healthySince,
        autoDecisions,
        recentPromotions: product => store.listForProduct(product.team, product.product, 50),
      },
      clock,
    );
    return ladderService({ digestAges: digestAges(), annotate: annotated => annotations.annotate(annotated) });
  };

  /**
   * A PromotionService wired as the composition root wires it, planning from snapshots of the repo, `argo`, holds and healthy-since times;
   * `guard` (when given) is asked about every request.
   */
  const promotionService = (
    how: {
      guard?: (subject: { toStage: string; kind: string }) => GuardVerdict;
      /** Another opener (say, one whose process dies), instead of the world's. */
      opener?: PromotionOpener;
    } = {},
  ) =>
    new PromotionService({
      config,
      snapshots: new RequestSnapshots({ config, ladder: LadderService.recordsAndHealth(ladderSources), holds, healthySince, clock }),
      store,
      writer: repo,
      opener: how.opener ?? opener,
      guards:
        how.guard &&
        new PromotionGuards([{ name: 'change-window', evaluate: async subject => how.guard!(subject) }], logger),
      logger,
      onChange: id => changed.push(id),
      holds,
      names: directory,
      clock,
      wasReleasedIn: (product, stage, service, d) =>
        new StageHistory({ config, writer: repo, store, cache: mockCache() }).wasReleased(product, stage, service, d),
    });

  /**
   * Approving and rejecting as the composition root wires them: the approvers
   * (`promotions.approval.approvers`, release-approvers by default) are who
   * `directory` says is a member; the permission policy allows everything.
   */
  const approvals = () => {
    const rights = new ApprovalRights({
      config,
      owners: directory,
      directory,
      logger,
    });
    const wiring = {
      config,
      store,
      writer: repo,
      rights,
      logger,
      names: directory,
    };
    return {
      approvalService: new ApprovalService({ ...wiring, onChange: id => changed.push(id) }),
      closer: new PromotionCloser(wiring),
    };
  };

  /** The write queue as the composition root wires it: it opens what bulk work queued when drained. */
  const writeQueue = new PromotionQueue({
    config,
    store,
    opener,
    files: repo,
    logger,
    clock,
    onOpened: id => changed.push(id),
  });

  /**
   * An AutoPromoter as the composition root wires it, on the annotated ladder; `systems` are the catalog's Systems (by
   * default alpha/shop's and beta/cart's, neither opting out); `holds` replaces the world's.
   */
  const autoPromoter = (parts: { systems?: Entity[]; holds?: HoldStore } = {}) => {
    const judged = annotatedLadderService();
    return new AutoPromoter({
      config,
      reader: repo,
      ladder: judged,
      promotions: promotionService(),
      healthSource: argo,
      holds: parts.holds ?? holds,
      healthySince,
      decisions: autoDecisions,
      catalog: catalogOf(parts.systems ?? [productSystem('alpha/shop'), productSystem('beta/cart')]),
      auth: serviceAuth(),
      logger,
      clock,
    });
  };

  return {
    clock,
    repo,
    store,
    directory,
    logger,
    config,
    opener,
    reconciler,
    health,
    ladder,
    request,
    argo,
    holds,
    healthySince,
    autoDecisions,
    ladderService,
    runAsReleased,
    released,
    digestAges,
    changed,
    gate,
    promotionService,
    approvals,
    autoPromoter,
    writeQueue,
  };
}
