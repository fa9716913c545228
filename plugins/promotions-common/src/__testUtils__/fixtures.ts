import { readFileSync } from 'fs';
import { resolve } from 'path';
import { parse } from 'yaml';

/**
 * A YAML file from `src/__fixtures__`, parsed with the given schema
 * (`yaml-1.1` reads unquoted timestamps as Date objects).
 */
export function loadFixture<T>(file: string, schema: 'core' | 'yaml-1.1' = 'core'): T {
  return parse(
    readFileSync(resolve(__dirname, '../__fixtures__', file), 'utf8'),
    { schema },
  ) as T;
}

/** A synthetic object: a real fixture, changed by `mutate`. */
export function modifiedFixture<T>(file: string, mutate: (fixture: any) => void): T {
  const fixture = loadFixture<any>(file);
  mutate(fixture);
  return fixture;
}
