import { Page } from 'playwright-core';

/** The signals client's frames: it sends `{action, channel}`, the backend sends `{channel, message}`. */
interface SignalFrame {
  action?: string;
  channel?: string;
}

function parseFrame(payload: string | Buffer): SignalFrame | undefined {
  try {
    const frame = JSON.parse(payload.toString());
    return typeof frame === 'object' && frame !== null ? frame : undefined;
  } catch {
    return undefined;
  }
}

/**
 * What a page's signals WebSocket carried, as Chromium saw it: the channels
 * the page subscribed to, and when each signal arrived. A signal sent before
 * the page's subscription reached the backend is lost (the signals backend
 * keeps none), and the ladder then shows the change only at its next poll, up
 * to 10 s later: a test that measures a live update starts once the page is
 * subscribed (`subscribed`). Under load, the socket opened seconds after the
 * ladder showed (a browser test's merge once took 7.7 s to show).
 */
export class PageSignals {
  private readonly channels = new Set<string>();
  private readonly arrivals: Array<{ at: number; channel: string }> = [];
  private readonly changed = new Set<() => void>();

  /** Call before the page loads the app: the socket opens during the load. */
  constructor(page: Page) {
    page.on('websocket', socket => {
      socket.on('framesent', ({ payload }) => this.sent(parseFrame(payload)));
      socket.on('framereceived', ({ payload }) => this.received(parseFrame(payload)));
    });
  }

  /** Until the page is subscribed to a channel starting with `prefix`; fails past `timeoutMs`, naming what it is subscribed to. */
  async subscribed(prefix: string, timeoutMs: number): Promise<void> {
    const isSubscribed = () => [...this.channels].some(channel => channel.startsWith(prefix));
    if (isSubscribed()) return;
    let onChange = () => {};
    const subscribed = new Promise<void>(resolve => {
      onChange = () => {
        if (isSubscribed()) resolve();
      };
      this.changed.add(onChange);
    });
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(
        () => reject(new Error(`the page did not subscribe to ${prefix}… within ${timeoutMs} ms (subscribed: ${[...this.channels].join(', ') || 'none'})`)),
        timeoutMs,
      );
    });
    try {
      await Promise.race([subscribed, timedOut]);
    } finally {
      clearTimeout(timer);
      this.changed.delete(onChange);
    }
  }

  /** Milliseconds from `since` to the first signal on `channel` that arrived then or later; undefined when none did. */
  firstSignalAfter(channel: string, since: number): number | undefined {
    const arrival = this.arrivals.find(a => a.channel === channel && a.at >= since);
    return arrival && arrival.at - since;
  }

  private sent(frame: SignalFrame | undefined) {
    if (!frame?.channel) return;
    if (frame.action === 'subscribe') this.channels.add(frame.channel);
    else if (frame.action === 'unsubscribe') this.channels.delete(frame.channel);
    else return;
    for (const onChange of [...this.changed]) onChange();
  }

  private received(frame: SignalFrame | undefined) {
    if (frame?.channel && frame.action === undefined) this.arrivals.push({ at: Date.now(), channel: frame.channel });
  }
}

const pageSignals = new WeakMap<Page, PageSignals>();

/** Starts recording `page`'s signals; before it loads the app. */
export function recordSignals(page: Page): PageSignals {
  const signals = new PageSignals(page);
  pageSignals.set(page, signals);
  return signals;
}

/** The signals of a page opened by `openSystem`. */
export function signalsOf(page: Page): PageSignals {
  const signals = pageSignals.get(page);
  if (!signals) throw new Error('this page does not record its signals: open it with openSystem');
  return signals;
}
