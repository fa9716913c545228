import { SchemaNode } from './types';

export interface RouteMatch {
  template: string;
  params: Record<string, string>;
}

function decodeSegment(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/**
 * Matches a concrete path against a description's "{param}" path templates.
 * Candidates come most specific first (most literal characters), so that
 * `/git/ref/{ref}` wins over `/git/{x}/{y}`. `greedyParams` may span slashes
 * (GitHub's `{path}`, `{ref}`, `{basehead}`).
 */
export function pathRouter(templates: string[], greedyParams: string[] = []) {
  const routes = templates
    .map(template => {
      const names: string[] = [];
      const pattern = template
        .split(/(\{[^}]+\})/)
        .map(part => {
          const param = /^\{([^}]+)\}$/.exec(part);
          if (!param) return part.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
          names.push(param[1]);
          return greedyParams.includes(param[1]) ? '(.+)' : '([^/]+)';
        })
        .join('');
      return {
        template,
        names,
        regex: new RegExp(`^${pattern}$`),
        literalLength: template.replace(/\{[^}]+\}/g, '').length,
      };
    })
    .sort((a, b) => b.literalLength - a.literalLength);

  return (concretePath: string): RouteMatch[] =>
    routes.flatMap(route => {
      const match = route.regex.exec(concretePath);
      if (!match) return [];
      const params = Object.fromEntries(route.names.map((name, i) => [name, decodeSegment(match[i + 1])]));
      return [{ template: route.template, params }];
    });
}

/** A raw query string as name → values (repeated keys kept in order). */
export function parseQuery(query: string | undefined): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [key, value] of new URLSearchParams(query ?? '')) (out[key] ??= []).push(value);
  return out;
}

/** Query-string text as the type its parameter schema names (the last of repeated values). */
export function coerceParam(values: string[], schema: SchemaNode | undefined): unknown {
  const type = Array.isArray(schema?.type) ? schema!.type.find((t: string) => t !== 'null') : schema?.type;
  const one = (value: string): unknown => {
    if (type === 'integer' || type === 'number') return /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value;
    if (type === 'boolean' && (value === 'true' || value === 'false')) return value === 'true';
    return value;
  };
  if (type === 'array') return values.flatMap(value => value.split(',')).map(one);
  return one(values[values.length - 1]);
}
