import { kubernetesClient } from './kubernetesClient';

jest.mock('@kubernetes/client-node', () => {
  throw new Error('@kubernetes/client-node was loaded');
});

describe('@kubernetes/client-node', () => {
  it('is not loaded with the plugin, only when a Kubernetes source first needs it', () => {
    jest.isolateModules(() => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      expect(require('../plugin').promotionsPlugin).toBeDefined();
    });
    expect(() => kubernetesClient()).toThrow('@kubernetes/client-node was loaded');
  });
});
