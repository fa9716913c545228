/** The ArgoCD instances and Kubernetes clusters the health sources read, as configured or borrowed. */

export interface ArgoCdInstanceConfig {
  name: string;
  baseUrl: string;
  token: string;
  uiUrl: string;
}

export interface KubernetesClusterConfig {
  name: string;
  url: string;
  serviceAccountToken?: string;
  caData?: string;
  /** Path of a PEM CA bundle (borrowed from the Kubernetes plugin's config). */
  caFile?: string;
  skipTLSVerify: boolean;
  applicationNamespace: string;
}
