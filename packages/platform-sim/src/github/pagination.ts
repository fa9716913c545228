import type { Request, Response } from 'express';

/**
 * Slices a list by `per_page` (default 30, max 100) and `page` (1-based) and
 * sets GitHub's Link header with rel="next"/"last" (and "prev"/"first") when there are more pages.
 */
export function paginate<T>(req: Request, res: Response, items: T[]): T[] {
  const origin = `${req.protocol}://${req.get('host')}`;
  const perPage = clamp(Number(req.query.per_page ?? 30) || 30, 1, 100);
  const page = Math.max(1, Number(req.query.page ?? 1) || 1);
  const lastPage = Math.max(1, Math.ceil(items.length / perPage));
  const links: string[] = [];
  const url = (n: number) => {
    const params = new URLSearchParams(req.query as Record<string, string>);
    params.set('per_page', String(perPage));
    params.set('page', String(n));
    return `${origin}${req.baseUrl}${req.path}?${params.toString()}`;
  };
  if (page < lastPage) {
    links.push(
      `<${url(page + 1)}>; rel="next"`,
      `<${url(lastPage)}>; rel="last"`,
    );
  }
  if (page > 1) {
    links.push(`<${url(page - 1)}>; rel="prev"`, `<${url(1)}>; rel="first"`);
  }
  if (links.length > 0) res.setHeader('Link', links.join(', '));
  return items.slice((page - 1) * perPage, page * perPage);
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, Math.floor(value)));
}
