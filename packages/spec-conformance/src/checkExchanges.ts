import { createArgoCdChecker } from './checks/argocd';
import { createCrdValidator } from './checks/crd';
import { createGithubChecker } from './checks/github';
import { createKubernetesChecker } from './checks/kubernetes';
import { Exchange, ExchangeResult } from './exchange';
import { createFieldChecker, FieldProblem } from './fields/fieldChecker';
import { judge, Verdict } from './report/verdict';

export interface Conformance extends Verdict {
  /** The descriptions the traffic was checked against. */
  references: string[];
  fieldRows: ReturnType<typeof createFieldChecker>['rows'];
}

/**
 * Checks recorded exchanges against the real descriptions. Only the
 * descriptions of the APIs that occur are loaded; each operation's schemas
 * are compiled the first time an exchange needs them.
 */
export function checkExchanges(exchanges: Exchange[]): Conformance {
  const hasGithub = exchanges.some(e => e.path.startsWith('/github/'));
  const hasArgo = exchanges.some(e => e.path.startsWith('/argocd/') || e.path.startsWith('/k8s/'));
  const github = hasGithub ? createGithubChecker() : undefined;
  const crds = hasArgo ? { application: createCrdValidator('application-crd.yaml'), rollout: createCrdValidator('rollout-crd.yaml') } : undefined;
  const argocd = crds && createArgoCdChecker(crds);
  const kubernetes = crds && createKubernetesChecker(crds);
  const fields = createFieldChecker({ github, argocdSwagger: argocd?.swagger, ...crds });

  const results: ExchangeResult[] = [];
  for (const exchange of exchanges) {
    if (exchange.path.startsWith('/github/')) results.push(github!.check(exchange));
    else if (exchange.path.startsWith('/argocd/')) results.push(argocd!.check(exchange));
    else if (exchange.path.startsWith('/k8s/')) results.push(kubernetes!.check(exchange));
  }
  const fieldProblems = new Map<ExchangeResult, FieldProblem[]>();
  for (const result of results) {
    const problems = fields.check(result);
    if (problems) fieldProblems.set(result, problems);
  }

  const references = [
    ...(github ? [`@octokit/openapi ${github.packageVersion} (api.github.com.json, ${github.spec.info.version})`] : []),
    ...(crds ? ['ref/argocd-swagger.json, ref/application-crd.yaml, ref/rollout-crd.yaml (origin: ref/NOTICE.md)'] : []),
  ];
  return { ...judge(results, fields.rows, fieldProblems), references, fieldRows: fields.rows };
}
