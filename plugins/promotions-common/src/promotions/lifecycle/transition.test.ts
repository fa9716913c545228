import type { PromotionStatus } from '../types';
import type { PromotionPhase } from './promotionPhase';
import { PromotionLifecycleEvent } from './promotionTransitions';
import { transition } from './transition';

/** The columns of the table below. */
const STATUSES: PromotionStatus[] = ['open', 'awaiting-approval', 'approved', 'merged', 'closed', 'failed'];

/**
 * Each event's next status from each status, in STATUSES' order; `-` where
 * the event cannot happen. Written out, not derived from the rules.
 */
const EXPECTED: Record<PromotionLifecycleEvent, string> = {
  //                         open               awaiting-approval  approved           merged  closed  failed
  'pull-request-opened':   'open               awaiting-approval  approved           -       -       -',
  'taken-from-queue':      'open               awaiting-approval  approved           -       -       -',
  'returned-to-queue':     'open               awaiting-approval  approved           -       -       -',
  'opening-renewed':       'open               awaiting-approval  approved           -       -       -',
  'dropped-from-queue':    'closed             closed             closed             -       -       -',
  'opening-failed':        'failed             failed             failed             -       -       -',
  'opening-abandoned':     'failed             failed             failed             -       -       -',
  'head-accepted':         'open               awaiting-approval  approved           -       -       -',
  'health-judged':         'open               awaiting-approval  approved           -       -       -',
  'guards-judged':         'open               awaiting-approval  approved           -       -       -',
  'guards-overridden':     'open               awaiting-approval  approved           -       -       -',
  'override-noted':        'open               awaiting-approval  approved           merged  closed  failed',
  'approval-required':     'awaiting-approval  -                  -                  -       -       -',
  'approval-counted':      '-                  awaiting-approval  -                  -       -       -',
  approved:                '-                  approved           -                  -       -       -',
  'approval-voided':       '-                  -                  awaiting-approval  -       -       -',
  'incident-opened':       '-                  -                  awaiting-approval  -       -       -',
  'merged-by-gate':        'merged             merged             merged             -       -       -',
  'merge-held':            'open               awaiting-approval  approved           -       -       -',
  'merged-on-github':      'merged             merged             merged             -       -       -',
  'closed-on-github':      'closed             closed             closed             -       -       -',
  'closed-by-gate':        'closed             closed             closed             -       -       -',
  rejected:                '-                  closed             closed             -       -       -',
  withdrawn:               'closed             closed             closed             -       -       -',
  superseded:              'closed             closed             closed             -       -       -',
  'merged-before-closing': '-                  -                  -                  -       merged  -',
};

const pairs = Object.entries(EXPECTED).flatMap(([event, row]) =>
  row.split(/\s+/).map((next, column) => [STATUSES[column], event as PromotionLifecycleEvent, next] as const),
);

describe('transition', () => {
  it('has a row of one cell per status for each event', () => {
    expect(pairs).toHaveLength(Object.keys(EXPECTED).length * STATUSES.length);
  });

  it.each(pairs.filter(([, , next]) => next !== '-'))('%s, %s → %s', (status, event, next) => {
    expect(transition(status, event)).toEqual({ to: next });
  });

  it.each(pairs.filter(([, , next]) => next === '-'))('%s, %s: refused', (status, event) => {
    expect(transition(status, event)).toEqual({
      refused: expect.stringContaining(`'${event}' cannot happen to a promotion that is ${status},`),
    });
  });

  /** The events about opening the PR, and two others, in each live phase; `-` where the phase refuses it. */
  const BY_PHASE: Partial<Record<PromotionLifecycleEvent, string>> = {
    //                       queued  opening  pull-request-open
    'pull-request-opened': 'open    open     -',
    'taken-from-queue':    'open    -        -',
    'returned-to-queue':   '-       open     -',
    'opening-renewed':     '-       open     -',
    'dropped-from-queue':  'closed  closed   -',
    'opening-failed':      'failed  failed   -',
    'opening-abandoned':   'failed  failed   -',
    'health-judged':       'open    open     open',
    withdrawn:             'closed  closed   closed',
  };
  const PHASES: PromotionPhase[] = ['queued', 'opening', 'pull-request-open'];
  const phasePairs = Object.entries(BY_PHASE).flatMap(([event, row]) =>
    row!.split(/\s+/).map((next, column) => [event as PromotionLifecycleEvent, PHASES[column], next] as const),
  );
  it.each(phasePairs.filter(([, , next]) => next !== '-'))('an open promotion, %s while %s → %s', (event, phase, next) => {
    expect(transition('open', event, phase)).toEqual({ to: next });
  });

  it.each(phasePairs.filter(([, , next]) => next === '-'))('an open promotion, %s while %s: refused', (event, phase) => {
    expect(transition('open', event, phase)).toEqual({
      refused: expect.stringContaining(`'${event}' cannot happen to a promotion ${phase},`),
    });
  });

  it('says which statuses an event can happen in', () => {
    expect(transition('open', 'rejected')).toEqual({
      refused: "'rejected' cannot happen to a promotion that is open, only to one that is awaiting-approval or approved",
    });
  });
});
