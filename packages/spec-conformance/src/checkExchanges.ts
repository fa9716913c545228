import { ArgoCdChecker, createArgoCdChecker } from './checks/argocd';
import { createCrdValidator, CrdValidator } from './checks/crd';
import { createGithubChecker, GithubChecker } from './checks/github';
import { createKubernetesChecker, KubernetesChecker } from './checks/kubernetes';
import { Exchange, ExchangeResult } from './exchange';
import { createFieldChecker, FieldProblem } from './fields/fieldChecker';
import { judge, Verdict } from './report/verdict';

export interface Conformance extends Verdict {
  /** The descriptions the traffic was checked against. */
  references: string[];
  fieldRows: ReturnType<typeof createFieldChecker>['rows'];
}

export interface ConformanceChecker {
  /** The verdict on one recording (one test file's exchanges). */
  check(exchanges: Exchange[]): Conformance;
}

interface ArgoCheckers {
  crds: { application: CrdValidator; rollout: CrdValidator };
  argocd: ArgoCdChecker;
  kubernetes: KubernetesChecker;
}

/**
 * Checks recordings against the real descriptions. A description is loaded
 * the first time a recording has traffic for it, and each operation's
 * schemas are compiled the first time an exchange needs them; both are kept
 * for the next recording, so checking a whole run's recordings with one
 * checker loads and compiles each once.
 */
export function createConformanceChecker(): ConformanceChecker {
  let github: GithubChecker | undefined;
  let argo: ArgoCheckers | undefined;
  const fieldCheckers = new Map<string, ReturnType<typeof createFieldChecker>>();

  const githubChecker = () => (github ??= createGithubChecker());
  const argoCheckers = (): ArgoCheckers => {
    if (!argo) {
      const crds = { application: createCrdValidator('application-crd.yaml'), rollout: createCrdValidator('rollout-crd.yaml') };
      argo = { crds, argocd: createArgoCdChecker(crds), kubernetes: createKubernetesChecker(crds) };
    }
    return argo;
  };

  return {
    check(exchanges) {
      const hasGithub = exchanges.some(e => e.path.startsWith('/github/'));
      const hasArgo = exchanges.some(e => e.path.startsWith('/argocd/') || e.path.startsWith('/k8s/'));
      const githubNeeded = hasGithub ? githubChecker() : undefined;
      const argoNeeded = hasArgo ? argoCheckers() : undefined;
      // A recording's field reads are those of the APIs it talks to.
      const fieldsKey = `${hasGithub} ${hasArgo}`;
      let fields = fieldCheckers.get(fieldsKey);
      if (!fields) {
        fields = createFieldChecker({ github: githubNeeded, argocdSwagger: argoNeeded?.argocd.swagger, ...argoNeeded?.crds });
        fieldCheckers.set(fieldsKey, fields);
      }

      const results: ExchangeResult[] = [];
      for (const exchange of exchanges) {
        if (exchange.path.startsWith('/github/')) results.push(githubNeeded!.check(exchange));
        else if (exchange.path.startsWith('/argocd/')) results.push(argoNeeded!.argocd.check(exchange));
        else if (exchange.path.startsWith('/k8s/')) results.push(argoNeeded!.kubernetes.check(exchange));
      }
      const fieldProblems = new Map<ExchangeResult, FieldProblem[]>();
      for (const result of results) {
        const problems = fields.check(result);
        if (problems) fieldProblems.set(result, problems);
      }

      const references = [
        ...(githubNeeded ? [`@octokit/openapi ${githubNeeded.packageVersion} (api.github.com.json, ${githubNeeded.spec.info.version})`] : []),
        ...(argoNeeded ? ['ref/argocd-swagger.json, ref/application-crd.yaml, ref/rollout-crd.yaml (origin: ref/NOTICE.md)'] : []),
      ];
      return { ...judge(results, fields.rows, fieldProblems), references, fieldRows: fields.rows };
    },
  };
}
