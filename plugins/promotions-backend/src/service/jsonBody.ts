import express, { RequestHandler } from 'express';
import { InputError } from '@backstage/errors';

/**
 * The routes take a stage, a few service names and digests, and a reason:
 * a few kilobytes at most. Larger bodies answer 413 before they are parsed.
 */
export const MAX_JSON_BODY_BYTES = 32 * 1024;

/**
 * The deepest body a route takes, `{services: {<svc>: <digest>}}`, is two
 * levels; eight leaves room to grow and none for a stack-exhausting value.
 */
export const MAX_JSON_DEPTH = 8;

/**
 * Walks without recursion, so a value nested thousands deep cannot exhaust
 * the stack of the check meant to stop it.
 */
export function isNestedDeeperThan(value: unknown, maxDepth: number): boolean {
  const pending: Array<{ value: unknown; depth: number }> = [{ value, depth: 1 }];
  while (pending.length > 0) {
    const current = pending.pop()!;
    if (current.value === null || typeof current.value !== 'object') continue;
    if (current.depth > maxDepth) return true;
    for (const child of Object.values(current.value)) {
      pending.push({ value: child, depth: current.depth + 1 });
    }
  }
  return false;
}

const rejectDeepBodies: RequestHandler = (req, _res, next) => {
  if (isNestedDeeperThan(req.body, MAX_JSON_DEPTH)) {
    next(new InputError(`The JSON body is nested deeper than ${MAX_JSON_DEPTH} levels`));
    return;
  }
  next();
};

/**
 * JSON bodies, bounded in size and depth; malformed JSON answers 400 and an
 * oversized body 413 (body-parser's own errors carry those statuses).
 */
export function jsonBody(): RequestHandler[] {
  return [express.json({ limit: MAX_JSON_BODY_BYTES }), rejectDeepBodies];
}
