/**
 * Kubernetes label selector matching (used by Argo CD's `selector` and the
 * Kubernetes API's `labelSelector`): k=v, k==v, k!=v, k, !k, k in (a,b), k notin (a,b).
 */
export function matchesLabelSelector(
  labels: Record<string, string> | undefined,
  selector: string,
): boolean {
  const actual = labels ?? {};
  return splitRequirements(selector).every(requirement =>
    matchesRequirement(actual, requirement),
  );
}

function splitRequirements(selector: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const char of selector) {
    if (char === '(') depth += 1;
    if (char === ')') depth -= 1;
    if (char === ',' && depth === 0) {
      parts.push(current);
      current = '';
    } else {
      current += char;
    }
  }
  parts.push(current);
  return parts.map(part => part.trim()).filter(Boolean);
}

function matchesRequirement(
  labels: Record<string, string>,
  requirement: string,
): boolean {
  const setMatch = /^([^\s!=]+)\s+(in|notin)\s+\((.*)\)$/.exec(requirement);
  if (setMatch) {
    const values = setMatch[3].split(',').map(v => v.trim());
    const has = setMatch[1] in labels && values.includes(labels[setMatch[1]]);
    return setMatch[2] === 'in' ? has : !has;
  }
  const inequality = /^([^\s!=]+)\s*!=\s*(.*)$/.exec(requirement);
  if (inequality) return labels[inequality[1]] !== inequality[2].trim();
  const equality = /^([^\s!=]+)\s*==?\s*(.*)$/.exec(requirement);
  if (equality) return labels[equality[1]] === equality[2].trim();
  if (requirement.startsWith('!'))
    return !(requirement.slice(1).trim() in labels);
  return requirement in labels;
}
