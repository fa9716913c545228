/** The simulator's public addresses; known only once the server listens. */
export class SimUrls {
  /** e.g. http://127.0.0.1:7070 */
  base = '';

  get github(): string {
    return `${this.base}/github`;
  }

  get argocd(): string {
    return `${this.base}/argocd`;
  }

  get kubernetes(): string {
    return `${this.base}/k8s`;
  }

  /** Stand-in for github.com (html_url links). */
  get web(): string {
    return `${this.base}/web`;
  }
}
