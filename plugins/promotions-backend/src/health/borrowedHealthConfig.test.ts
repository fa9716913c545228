import { ConfigReader } from '@backstage/config';
import type { JsonObject } from '@backstage/types';
import type { ArgoCdInstanceConfig, KubernetesClusterConfig } from './healthInstances';
import { HealthConfigOrigin, chooseHealthInstances } from './borrowedHealthConfig';

const ownArgo: ArgoCdInstanceConfig = {
  name: 'own',
  baseUrl: 'https://own.example.com',
  token: 'o',
  uiUrl: 'https://own.example.com',
};
const ownCluster: KubernetesClusterConfig = {
  name: 'hub',
  url: 'https://hub.example.com',
  serviceAccountToken: 'h',
  skipTLSVerify: false,
  applicationNamespace: 'argocd',
};

/** The community (Roadie) ArgoCD plugin's block, as its README shows it. */
const roadie: JsonObject = {
  username: 'admin',
  password: 'secret',
  waitCycles: 25,
  appLocatorMethods: [
    {
      type: 'config',
      instances: [
        { name: 'eu', url: 'https://argocd.eu.example.com/', token: 'eu-token' },
        { name: 'us', url: 'https://argocd.us.example.com', frontendUrl: 'https://ui.us.example.com', token: 'us-token' },
      ],
    },
  ],
};

/** Backstage's Kubernetes plugin block, as its configuration page shows it. */
const backstageKubernetes: JsonObject = {
  serviceLocatorMethod: { type: 'multiTenant' },
  clusterLocatorMethods: [
    {
      type: 'config',
      clusters: [
        {
          name: 'minikube',
          url: 'https://127.0.0.1:9999/',
          authProvider: 'serviceAccount',
          serviceAccountToken: 'k-token',
          skipTLSVerify: true,
          caData: 'CA',
        },
      ],
    },
  ],
};

interface Case {
  title: string;
  argocd?: ArgoCdInstanceConfig[];
  kubernetes?: KubernetesClusterConfig[];
  argocdPlugin?: JsonObject;
  kubernetesPlugin?: JsonObject;
  origin: HealthConfigOrigin;
  /** [name, url, token] of what the health source gets. */
  argocdOut?: Array<[string, string, string]>;
  kubernetesOut?: Array<[string, string, string | undefined]>;
  warnings?: RegExp[];
}

const cases: Case[] = [
  {
    title: 'promotions.kubernetes wins over everything',
    kubernetes: [ownCluster],
    argocd: [ownArgo],
    argocdPlugin: roadie,
    kubernetesPlugin: backstageKubernetes,
    origin: 'promotions.kubernetes',
    kubernetesOut: [['hub', 'https://hub.example.com', 'h']],
  },
  {
    title: 'promotions.argocd wins over the other plugins',
    argocd: [ownArgo],
    argocdPlugin: roadie,
    kubernetesPlugin: backstageKubernetes,
    origin: 'promotions.argocd',
    argocdOut: [['own', 'https://own.example.com', 'o']],
  },
  {
    title: 'the ArgoCD plugin before the Kubernetes plugin',
    argocdPlugin: roadie,
    kubernetesPlugin: backstageKubernetes,
    origin: 'argocd.appLocatorMethods',
    argocdOut: [
      ['eu', 'https://argocd.eu.example.com', 'eu-token'],
      ['us', 'https://argocd.us.example.com', 'us-token'],
    ],
  },
  {
    title: 'the Kubernetes plugin when the ArgoCD plugin has no usable instance',
    argocdPlugin: {
      username: 'admin',
      password: 'secret',
      appLocatorMethods: [{ type: 'config', instances: [{ name: 'eu', url: 'https://eu' }] }],
    },
    kubernetesPlugin: backstageKubernetes,
    origin: 'kubernetes.clusterLocatorMethods',
    kubernetesOut: [['minikube', 'https://127.0.0.1:9999', 'k-token']],
    warnings: [/argocd instance eu is skipped: it has no token \(username\/password login is not supported/],
  },
  {
    title: 'an instance with its own username and no token is skipped',
    argocdPlugin: {
      appLocatorMethods: [
        {
          type: 'config',
          instances: [
            { name: 'a', url: 'https://a', username: 'u', password: 'p' },
            { name: 'b', url: 'https://b', token: 't' },
          ],
        },
      ],
    },
    origin: 'argocd.appLocatorMethods',
    argocdOut: [['b', 'https://b', 't']],
    warnings: [/instance a is skipped: .*username\/password/],
  },
  {
    title: 'locators other than type: config are ignored with a warning',
    argocdPlugin: { appLocatorMethods: [{ type: 'discovery' }] },
    kubernetesPlugin: {
      clusterLocatorMethods: [
        { type: 'gke', projectId: 'p', region: 'europe-west1' },
        ...(backstageKubernetes.clusterLocatorMethods as JsonObject[]),
      ],
    },
    origin: 'kubernetes.clusterLocatorMethods',
    kubernetesOut: [['minikube', 'https://127.0.0.1:9999', 'k-token']],
    warnings: [
      /argocd.appLocatorMethods\[0\] has type discovery; only type: config is read/,
      /kubernetes.clusterLocatorMethods\[0\] has type gke; only type: config is read/,
    ],
  },
  {
    title: 'clusters without a service account token are skipped',
    kubernetesPlugin: {
      clusterLocatorMethods: [
        {
          type: 'config',
          clusters: [
            { name: 'aws', url: 'https://aws', authProvider: 'aws' },
            { name: 'pod', url: 'https://pod', authProvider: 'serviceAccount' },
            {
              name: 'meta',
              url: 'https://meta',
              authMetadata: { 'kubernetes.io/auth-provider': 'serviceAccount', serviceAccountToken: 'm' },
            },
          ],
        },
      ],
    },
    origin: 'kubernetes.clusterLocatorMethods',
    kubernetesOut: [['meta', 'https://meta', 'm']],
    warnings: [
      /cluster aws is skipped: authProvider aws is not supported, only serviceAccount/,
      /cluster pod is skipped: it has no serviceAccountToken/,
    ],
  },
  {
    title: 'nothing anywhere',
    origin: 'none',
  },
  {
    title: 'nothing usable anywhere',
    argocdPlugin: { baseUrl: 'https://argocd-ui.example.com' },
    kubernetesPlugin: { clusterLocatorMethods: [{ type: 'localKubectlProxy' }] },
    origin: 'none',
    warnings: [/only type: config is read/],
  },
];

describe('chooseHealthInstances', () => {
  it.each(cases)('$title', c => {
    const chosen = chooseHealthInstances({
      argocd: c.argocd ?? [],
      kubernetes: c.kubernetes ?? [],
      argocdPlugin: c.argocdPlugin && new ConfigReader(c.argocdPlugin, 'argocd'),
      kubernetesPlugin: c.kubernetesPlugin && new ConfigReader(c.kubernetesPlugin, 'kubernetes'),
      applicationNamespace: 'argocd',
    });
    expect(chosen.origin).toBe(c.origin);
    expect(chosen.argocd.map(i => [i.name, i.baseUrl, i.token])).toEqual(c.argocdOut ?? []);
    expect(chosen.kubernetes.map(k => [k.name, k.url, k.serviceAccountToken])).toEqual(
      c.kubernetesOut ?? [],
    );
    expect(chosen.warnings).toHaveLength((c.warnings ?? []).length);
    (c.warnings ?? []).forEach((pattern, i) => expect(chosen.warnings[i]).toMatch(pattern));
    expect(chosen.reason).toContain(c.origin === 'none' ? 'no health source' : c.origin);
  });

  it('maps every field of a borrowed ArgoCD instance and Kubernetes cluster', () => {
    const argo = chooseHealthInstances({
      argocd: [],
      kubernetes: [],
      argocdPlugin: new ConfigReader(roadie),
      applicationNamespace: 'argocd',
    });
    expect(argo.argocd[1]).toEqual({
      name: 'us',
      baseUrl: 'https://argocd.us.example.com',
      token: 'us-token',
      uiUrl: 'https://ui.us.example.com',
    });
    const kube = chooseHealthInstances({
      argocd: [],
      kubernetes: [],
      kubernetesPlugin: new ConfigReader(backstageKubernetes),
      applicationNamespace: 'gitops',
    });
    expect(kube.kubernetes).toEqual([
      {
        name: 'minikube',
        url: 'https://127.0.0.1:9999',
        serviceAccountToken: 'k-token',
        caData: 'CA',
        caFile: undefined,
        skipTLSVerify: true,
        applicationNamespace: 'gitops',
      },
    ]);
    expect(kube.reason).toMatch(/Applications in namespace gitops/);
  });
});
