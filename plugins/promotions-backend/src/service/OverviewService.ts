import {
  BackstageCredentials,
  BackstageServicePrincipal,
  BackstageUserPrincipal,
  UserInfoService,
} from '@backstage/backend-plugin-api';
import {
  OverviewResponse,
  StuckResponse,
  matchesOverview,
  overviewPage,
} from '@refplat/plugin-promotions-common';
import type { ProductReadAccess } from './authorize';
import { OverviewModel, ProductOverview } from './OverviewModel';
import { OverviewQuery } from './overviewQuery';

type Caller = BackstageCredentials<BackstageUserPrincipal | BackstageServicePrincipal>;

/**
 * GET /overview and GET /stuck: the warm model's rows of the Products the
 * caller may read (`access`, as the operations layer decides it).
 */
export class OverviewService {
  constructor(
    private readonly options: {
      model: OverviewModel;
      stages: string[];
      userInfo: UserInfoService;
    },
  ) {}

  async overview(credentials: Caller, query: OverviewQuery, access: ProductReadAccess): Promise<OverviewResponse> {
    const callerRefs = query.criteria.filter === 'mine' ? await this.ownershipOf(credentials) : [];
    const rows = (await this.readable(access))
      .map(entry => entry.row)
      .filter(row => matchesOverview(row, query.criteria, callerRefs));
    return { stages: this.options.stages, ...overviewPage(rows, { after: query.after, limit: query.limit }) };
  }

  /** Every stuck deployment the caller may read, the longest stuck first. */
  async stuck(access: ProductReadAccess): Promise<StuckResponse> {
    const items = (await this.readable(access)).flatMap(entry => entry.stuck);
    const since = (iso?: string) => (iso ? Date.parse(iso) : Number.POSITIVE_INFINITY);
    items.sort((a, b) => since(a.stuckSince) - since(b.stuckSince) || a.product.localeCompare(b.product));
    return { items };
  }

  private async readable(access: ProductReadAccess): Promise<ProductOverview[]> {
    const entries = await this.options.model.current();
    const allowed = await access.among(entries.map(entry => entry.product));
    const readable = new Set(allowed);
    return entries.filter(entry => readable.has(entry.product));
  }

  /** The caller's user and groups, as sign-in resolved them; a service owns nothing. */
  private async ownershipOf(credentials: Caller): Promise<string[]> {
    if (credentials.principal.type !== 'user') return [];
    const user = credentials as BackstageCredentials<BackstageUserPrincipal>;
    const { userEntityRef, ownershipEntityRefs } = await this.options.userInfo.getUserInfo(user);
    return [userEntityRef, ...ownershipEntityRefs];
  }
}
