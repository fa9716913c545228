import { DateTime, Info, WeekdayNumbers } from 'luxon';
import { ProductRef } from '../names';
import { GuardVerdict } from './types';

/**
 * A freeze window from config: promotions into `stages` are blocked while it
 * is on. `schedule` is a weekly window ("Fri 16:00 – Mon 08:00") or a date
 * range whose both days are frozen whole ("2026-12-20 – 2027-01-04"), read
 * as wall-clock times in `timezone` (an IANA zone, e.g. Europe/Berlin).
 * A weekly window that ends when it starts ("Mon 00:00 – Mon 00:00") is on
 * all the time.
 *
 * @public
 */
export interface FreezeWindow {
  name: string;
  stages: string[];
  schedule: string;
  timezone: string;
  reason: string;
  /** The Products it freezes (`team/product`); every Product when absent. */
  products?: string[];
}

/** The windows that freeze this Product: those naming it, and those naming no Product. @public */
export function freezesOf(windows: FreezeWindow[], product: ProductRef): FreezeWindow[] {
  const name = `${product.team}/${product.product}`;
  return windows.filter(window => !window.products || window.products.includes(name));
}

/** A freeze window that is on at some moment, and when it ends. @public */
export interface ActiveFreeze {
  name: string;
  reason: string;
  /** The window's IANA time zone, in which people read its times. */
  timezone: string;
  /** ISO time (UTC) of the window's end. */
  start: string;
  end: string;
}

type WeeklyTime = { weekday: WeekdayNumbers; hour: number; minute: number };
type ParsedSchedule =
  | { kind: 'weekly'; start: WeeklyTime; end: WeeklyTime }
  | { kind: 'dates'; start: string; end: string };

// Either side of a dash with spaces around it: dates contain bare hyphens.
const RANGE_SEPARATOR = /\s+[–—-]\s+/;

function parseWeeklyTime(text: string): WeeklyTime | undefined {
  const parsed = DateTime.fromFormat(text.trim(), 'ccc HH:mm', { locale: 'en' });
  if (!parsed.isValid) return undefined;
  return { weekday: parsed.weekday, hour: parsed.hour, minute: parsed.minute };
}

function parseSchedule(schedule: string): ParsedSchedule | string {
  const sides = schedule.trim().split(RANGE_SEPARATOR);
  if (sides.length !== 2) {
    return `schedule ${JSON.stringify(schedule)} must be "<start> – <end>", e.g. "Fri 16:00 – Mon 08:00" or "2026-12-20 – 2027-01-04"`;
  }
  const [startWeekly, endWeekly] = sides.map(parseWeeklyTime);
  if (startWeekly && endWeekly) return { kind: 'weekly', start: startWeekly, end: endWeekly };
  const [startDate, endDate] = sides.map(side => DateTime.fromFormat(side, 'yyyy-MM-dd'));
  if (startDate.isValid && endDate.isValid) {
    if (endDate < startDate) return `schedule ${JSON.stringify(schedule)} ends before it starts`;
    return { kind: 'dates', start: sides[0], end: sides[1] };
  }
  return `schedule ${JSON.stringify(schedule)} is neither "<Ddd HH:mm> – <Ddd HH:mm>" (e.g. "Fri 16:00 – Mon 08:00") nor "<yyyy-mm-dd> – <yyyy-mm-dd>"`;
}

/** What is wrong with a freeze window's config, or undefined. @public */
export function freezeWindowProblem(window: FreezeWindow): string | undefined {
  if (!Info.isValidIANAZone(window.timezone)) {
    return `freeze ${window.name}: ${JSON.stringify(window.timezone)} is not an IANA time zone (e.g. Europe/Berlin)`;
  }
  const parsed = parseSchedule(window.schedule);
  return typeof parsed === 'string' ? `freeze ${window.name}: ${parsed}` : undefined;
}

/** The weekly window's latest start at or before `now`, and its end, in the window's zone. */
function weeklyOccurrence(start: WeeklyTime, end: WeeklyTime, now: DateTime) {
  // `set` moves within now's ISO week (Mon–Sun) at the same wall time; luxon
  // moves wall times a DST change skips forward and picks the earlier of
  // repeated ones, and week arithmetic keeps wall times across DST changes.
  let from = now.set({ ...start, second: 0, millisecond: 0 });
  if (from > now) from = from.minus({ weeks: 1 });
  let to = from.set({ ...end, second: 0, millisecond: 0 });
  if (to <= from) to = to.plus({ weeks: 1 });
  return { from, to };
}

/** The window's occurrence that is on at `now`, or undefined. @public */
export function activeFreeze(window: FreezeWindow, now: Date): ActiveFreeze | undefined {
  const schedule = parseSchedule(window.schedule);
  if (typeof schedule === 'string') throw new Error(`freeze ${window.name}: ${schedule}`);
  const at = DateTime.fromJSDate(now, { zone: window.timezone });
  const { from, to } =
    schedule.kind === 'weekly'
      ? weeklyOccurrence(schedule.start, schedule.end, at)
      : {
          from: DateTime.fromISO(schedule.start, { zone: window.timezone }).startOf('day'),
          to: DateTime.fromISO(schedule.end, { zone: window.timezone }).plus({ days: 1 }).startOf('day'),
        };
  if (at < from || at >= to) return undefined;
  return {
    name: window.name,
    reason: window.reason,
    timezone: window.timezone,
    start: from.toUTC().toISO()!,
    end: to.toUTC().toISO()!,
  };
}

/** The windows on for `stage` at `now`, latest end first (the one a promotion waits for). @public */
export function activeFreezes(windows: FreezeWindow[], stage: string, now: Date): ActiveFreeze[] {
  return windows
    .filter(window => window.stages.includes(stage))
    .flatMap(window => activeFreeze(window, now) ?? [])
    .sort((a, b) => b.end.localeCompare(a.end));
}

/** The window's end as its people read it: wall time in the window's own zone ("Mon 7 Dec 2026, 08:00 Europe/Berlin"). */
function readableEnd(freeze: ActiveFreeze): string {
  const end = DateTime.fromISO(freeze.end, { zone: freeze.timezone, locale: 'en-GB' });
  return `${end.toFormat('ccc d LLL yyyy, HH:mm')} ${freeze.timezone}`;
}

/** The freeze guard's verdict on a promotion into `stage` at `now`; `until` stays ISO for machines. @public */
export function freezeVerdict(windows: FreezeWindow[], stage: string, now: Date): GuardVerdict {
  const [freeze] = activeFreezes(windows, stage, now);
  if (!freeze) return { verdict: 'allow', reason: `${stage} is not frozen` };
  return {
    verdict: 'block',
    reason: `${stage} is frozen by ${freeze.name} until ${readableEnd(freeze)}: ${freeze.reason}`,
    until: freeze.end,
  };
}
