import { describeExchange, Exchange } from '../exchange';

export type FindingKind = 'product request invalid' | 'product-read field' | 'simulator response differs' | 'note';

/** A group of equal problems; `count` is the number of exchanges that showed it. */
export interface Finding {
  kind: FindingKind;
  key: string;
  count: number;
  /** One exchange that showed it, with where in the body when known. */
  example?: string;
  /** The test files it was seen in. */
  suites: string[];
}

/** Collects problems into findings keyed by kind and text, counting each exchange once. */
export class FindingGroups {
  private readonly groups = new Map<string, Finding & { seen: Set<Exchange> }>();

  add(kind: FindingKind, key: string, exchange?: Exchange, detail?: string): void {
    const id = `${kind}\u0000${key}`;
    let group = this.groups.get(id);
    if (!group) {
      const example = exchange && `${describeExchange(exchange)}${detail ? `: ${detail}` : ''}`;
      group = { kind, key, count: 0, example, suites: [], seen: new Set() };
      this.groups.set(id, group);
    }
    if (exchange && !group.seen.has(exchange)) {
      group.seen.add(exchange);
      group.count++;
      if (!group.suites.includes(exchange.suite)) group.suites.push(exchange.suite);
    }
  }

  /** Removes and returns the groups `select` picks. */
  take(select: (finding: Finding) => boolean): Finding[] {
    const taken = [];
    for (const [id, group] of this.groups) {
      if (!select(group)) continue;
      this.groups.delete(id);
      taken.push(this.plain(group));
    }
    return taken;
  }

  list(): Finding[] {
    return [...this.groups.values()].map(group => this.plain(group)).sort((a, b) => a.key.localeCompare(b.key));
  }

  private plain({ seen: _seen, ...finding }: Finding & { seen: Set<Exchange> }): Finding {
    return finding;
  }
}

/**
 * Problem text without instance numbers, so equal problems in different
 * items, pull requests or Rollouts group together.
 */
export function normaliseProblem(text: string): string {
  return text
    .replace(/items\[\d+\] [\w.-]+/g, 'items[i]')
    .replace(/manifest [\w.-]+/g, 'manifest')
    .replace(/\/\d+\//g, '/N/')
    .replace(/\/\d+$/g, '/N')
    .replace(/\[\d+\]/g, '[i]')
    .replace(/rollouts\/[\w.-]+/g, 'rollouts/NAME');
}
