import { ReactNode } from 'react';
import { act, renderHook } from '@testing-library/react';
import { TestApiProvider } from '@backstage/test-utils';
import { SignalApi, signalApiRef } from '@backstage/plugin-signals-react';
import { ProductRef } from '@refplat/plugin-promotions-common';
import { useProductSignals } from './useProductSignals';

/** The signals API as the app's client is to its subscribers: what each subscribed to, and whether it left. */
function fakeSignals() {
  const subscriptions: Array<{ channel: string; onMessage: (message: any) => void; left: boolean }> = [];
  const api: SignalApi = {
    subscribe(channel, onMessage) {
      const subscription = { channel, onMessage, left: false };
      subscriptions.push(subscription);
      return { unsubscribe: () => (subscription.left = true) };
    },
  };
  return { api, subscriptions };
}

function withSignals(api: SignalApi) {
  return ({ children }: { children: ReactNode }) => <TestApiProvider apis={[[signalApiRef, api]]}>{children}</TestApiProvider>;
}

const SHOP: ProductRef = { team: 'alpha', product: 'shop' };

describe('useProductSignals', () => {
  it('subscribes nowhere while the Product is being looked up, then once to its channel, whatever the renders', () => {
    const signals = fakeSignals();
    const onSignal = jest.fn();
    const { rerender } = renderHook(({ product }) => useProductSignals(product, onSignal), {
      wrapper: withSignals(signals.api),
      initialProps: { product: undefined as ProductRef | undefined },
    });
    rerender({ product: undefined });
    // The signals client closes its socket when its last subscriber leaves: a
    // subscription made and left here closed the socket it was opening.
    expect(signals.subscriptions).toEqual([]);

    rerender({ product: { ...SHOP } });
    // The entity's lookup gives an equal Product, not the same object, on each render.
    rerender({ product: { ...SHOP } });
    rerender({ product: { ...SHOP } });
    expect(signals.subscriptions.map(({ channel, left }) => ({ channel, left }))).toEqual([
      { channel: 'promotions:alpha/shop', left: false },
    ]);
  });

  it('calls the latest onSignal on each signal, and leaves when the card goes', () => {
    const signals = fakeSignals();
    const first = jest.fn();
    const latest = jest.fn();
    const { rerender, unmount } = renderHook(({ onSignal }) => useProductSignals(SHOP, onSignal), {
      wrapper: withSignals(signals.api),
      initialProps: { onSignal: first },
    });
    rerender({ onSignal: latest });
    act(() => signals.subscriptions[0].onMessage({ product: 'alpha/shop', what: 'promotion' }));
    act(() => signals.subscriptions[0].onMessage({ product: 'alpha/shop', what: 'promotion' }));
    expect(first).not.toHaveBeenCalled();
    expect(latest).toHaveBeenCalledTimes(2);
    expect(signals.subscriptions).toHaveLength(1);

    unmount();
    expect(signals.subscriptions[0].left).toBe(true);
  });

  it('moves to the new channel when the entity names another Product', () => {
    const signals = fakeSignals();
    const { rerender } = renderHook(({ product }) => useProductSignals(product, jest.fn()), {
      wrapper: withSignals(signals.api),
      initialProps: { product: SHOP },
    });
    rerender({ product: { team: 'alpha', product: 'blog' } });
    expect(signals.subscriptions.map(({ channel, left }) => ({ channel, left }))).toEqual([
      { channel: 'promotions:alpha/shop', left: true },
      { channel: 'promotions:alpha/blog', left: false },
    ]);
  });

  it('does nothing in an app without the signals plugin', () => {
    const onSignal = jest.fn();
    expect(() =>
      renderHook(() => useProductSignals(SHOP, onSignal), {
        wrapper: ({ children }: { children: ReactNode }) => <TestApiProvider apis={[]}>{children}</TestApiProvider>,
      }),
    ).not.toThrow();
    expect(onSignal).not.toHaveBeenCalled();
  });
});
