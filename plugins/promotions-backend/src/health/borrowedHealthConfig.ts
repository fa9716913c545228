import type { Config } from '@backstage/config';
import type { ArgoCdInstanceConfig, KubernetesClusterConfig } from './healthInstances';

/** Where the health source's instances came from. */
export type HealthConfigOrigin =
  | 'promotions.kubernetes'
  | 'promotions.argocd'
  | 'argocd.appLocatorMethods'
  | 'kubernetes.clusterLocatorMethods'
  | 'none';

export interface HealthInstances {
  origin: HealthConfigOrigin;
  /** Non-empty only when the origin is an ArgoCD one. */
  argocd: ArgoCdInstanceConfig[];
  /** Non-empty only when the origin is a Kubernetes one. */
  kubernetes: KubernetesClusterConfig[];
  /** One sentence for the start-up log: which source is used and why. */
  reason: string;
  /** Entries of the other plugins' config that could not be used, and why. */
  warnings: string[];
}

export interface HealthConfigInput {
  /** `promotions.argocd`, already read. */
  argocd: ArgoCdInstanceConfig[];
  /** `promotions.kubernetes.clusters`, already read. */
  kubernetes: KubernetesClusterConfig[];
  /** The root `argocd` block of the community (Roadie) ArgoCD plugin. */
  argocdPlugin?: Config;
  /** The root `kubernetes` block of Backstage's Kubernetes plugin. */
  kubernetesPlugin?: Config;
  /** Namespace of the Applications on borrowed clusters (`promotions.kubernetes.applicationNamespace`). */
  applicationNamespace: string;
}

/** The key Backstage's Kubernetes plugin also accepts for the auth provider. */
const AUTH_PROVIDER_ANNOTATION = 'kubernetes.io/auth-provider';

const trimUrl = (url: string) => url.replace(/\/+$/, '');
const stringOr = (value: unknown) => (typeof value === 'string' && value ? value : undefined);

function names(list: Array<{ name: string }>): string {
  return list.map(item => item.name).join(', ');
}

/**
 * Picks the health source's instances. The plugin's own keys win, so an
 * adopter can always say exactly what the ladder reads; only when neither
 * `promotions.kubernetes` nor `promotions.argocd` is set are the instances
 * another plugin already has borrowed, ArgoCD's first because its REST API
 * gives resource trees the Kubernetes path has to approximate. Pure: the
 * caller reads the config and logs the reason and warnings.
 */
export function chooseHealthInstances(input: HealthConfigInput): HealthInstances {
  const none = { argocd: [], kubernetes: [], warnings: [] };
  if (input.kubernetes.length > 0) {
    return {
      ...none,
      origin: 'promotions.kubernetes',
      kubernetes: input.kubernetes,
      reason: `health from promotions.kubernetes (clusters: ${names(input.kubernetes)})`,
    };
  }
  if (input.argocd.length > 0) {
    return {
      ...none,
      origin: 'promotions.argocd',
      argocd: input.argocd,
      reason: `health from promotions.argocd (instances: ${names(input.argocd)})`,
    };
  }
  const warnings: string[] = [];
  const argocd = fromArgocdPlugin(input.argocdPlugin, warnings);
  if (argocd.length > 0) {
    return {
      ...none,
      origin: 'argocd.appLocatorMethods',
      argocd,
      warnings,
      reason:
        `health from the ArgoCD plugin's argocd.appLocatorMethods (instances: ${names(argocd)}), ` +
        'as neither promotions.argocd nor promotions.kubernetes is set',
    };
  }
  const kubernetes = fromKubernetesPlugin(
    input.kubernetesPlugin,
    input.applicationNamespace,
    warnings,
  );
  if (kubernetes.length > 0) {
    return {
      ...none,
      origin: 'kubernetes.clusterLocatorMethods',
      kubernetes,
      warnings,
      reason:
        `health from the Kubernetes plugin's kubernetes.clusterLocatorMethods (clusters: ${names(kubernetes)}, ` +
        `Applications in namespace ${input.applicationNamespace}), ` +
        'as neither promotions.argocd nor promotions.kubernetes is set',
    };
  }
  return {
    ...none,
    origin: 'none',
    warnings,
    reason:
      'no health source: set promotions.argocd or promotions.kubernetes, or configure ' +
      'argocd.appLocatorMethods or kubernetes.clusterLocatorMethods with type: config',
  };
}

/**
 * Instances of `argocd.appLocatorMethods[type=config]`. Only token-holding
 * instances are usable: the plugin calls ArgoCD with a bearer token and has
 * no session login to renew, so username/password instances are skipped.
 */
function fromArgocdPlugin(block: Config | undefined, warnings: string[]): ArgoCdInstanceConfig[] {
  const instances: ArgoCdInstanceConfig[] = [];
  const sharedLogin = Boolean(block?.getOptionalString('username'));
  for (const [index, method] of (block?.getOptionalConfigArray('appLocatorMethods') ?? []).entries()) {
    const type = method.getOptionalString('type');
    if (type !== 'config') {
      warnings.push(`argocd.appLocatorMethods[${index}] has type ${type ?? '(none)'}; only type: config is read`);
      continue;
    }
    for (const instance of method.getOptionalConfigArray('instances') ?? []) {
      const name = instance.getString('name');
      const url = instance.getString('url');
      const token = instance.getOptionalString('token');
      if (!token) {
        const login = sharedLogin || Boolean(instance.getOptionalString('username'));
        warnings.push(
          `argocd instance ${name} is skipped: it has no token${
            login ? ' (username/password login is not supported; add an account token)' : ''
          }`,
        );
        continue;
      }
      const frontendUrl = instance.getOptionalString('frontendUrl');
      instances.push({ name, baseUrl: trimUrl(url), token, uiUrl: trimUrl(frontendUrl ?? url) });
    }
  }
  return instances;
}

/**
 * Clusters of `kubernetes.clusterLocatorMethods[type=config]` that
 * authenticate with a service account token, the only credential the
 * Kubernetes health source can present on its own (the others need the
 * signed-in user's or a cloud provider's identity).
 */
function fromKubernetesPlugin(
  block: Config | undefined,
  applicationNamespace: string,
  warnings: string[],
): KubernetesClusterConfig[] {
  const clusters: KubernetesClusterConfig[] = [];
  for (const [index, method] of (block?.getOptionalConfigArray('clusterLocatorMethods') ?? []).entries()) {
    const type = method.getOptionalString('type');
    if (type !== 'config') {
      warnings.push(
        `kubernetes.clusterLocatorMethods[${index}] has type ${type ?? '(none)'}; only type: config is read`,
      );
      continue;
    }
    for (const cluster of method.getOptionalConfigArray('clusters') ?? []) {
      const name = cluster.getString('name');
      // Newer Backstage also accepts both keys inside an authMetadata block, which wins.
      // Read as a plain object: its keys contain dots, which config paths split on.
      const authMetadata = cluster.getOptional<Record<string, unknown>>('authMetadata') ?? {};
      const authProvider =
        stringOr(authMetadata[AUTH_PROVIDER_ANNOTATION]) ?? cluster.getOptionalString('authProvider');
      const token =
        stringOr(authMetadata.serviceAccountToken) ?? cluster.getOptionalString('serviceAccountToken');
      if (authProvider !== 'serviceAccount') {
        warnings.push(
          `kubernetes cluster ${name} is skipped: authProvider ${authProvider ?? '(none)'} is not supported, only serviceAccount`,
        );
        continue;
      }
      if (!token) {
        warnings.push(`kubernetes cluster ${name} is skipped: it has no serviceAccountToken`);
        continue;
      }
      clusters.push({
        name,
        url: trimUrl(cluster.getString('url')),
        serviceAccountToken: token,
        caData: cluster.getOptionalString('caData'),
        caFile: cluster.getOptionalString('caFile'),
        skipTLSVerify: cluster.getOptionalBoolean('skipTLSVerify') ?? false,
        applicationNamespace,
      });
    }
  }
  return clusters;
}
