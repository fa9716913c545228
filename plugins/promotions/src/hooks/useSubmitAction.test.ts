import { act, renderHook } from '@testing-library/react';
import { useSubmitAction } from './useSubmitAction';

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('useSubmitAction', () => {
  it('is busy while the action runs, then keeps its result and calls onSuccess', async () => {
    const call = deferred<string>();
    const onSuccess = jest.fn();
    const { result } = renderHook(() => useSubmitAction(() => call.promise, onSuccess));
    expect(result.current).toMatchObject({ busy: false, error: undefined, result: undefined });

    let submitted!: Promise<void>;
    act(() => {
      submitted = result.current.submit();
    });
    expect(result.current.busy).toBe(true);
    expect(onSuccess).not.toHaveBeenCalled();

    await act(async () => {
      call.resolve('done');
      await submitted;
    });
    expect(result.current).toMatchObject({ busy: true, error: undefined, result: 'done' });
    expect(onSuccess).toHaveBeenCalledTimes(1);
  });

  it("shows a failure in the backend's words and lets the user try again", async () => {
    const action = jest
      .fn<Promise<string>, []>()
      .mockRejectedValueOnce(new Error('test already carries storefront'))
      .mockResolvedValueOnce('second time');
    const onSuccess = jest.fn();
    const { result } = renderHook(() => useSubmitAction(action, onSuccess));

    await act(() => result.current.submit());
    expect(result.current).toMatchObject({
      busy: false,
      error: 'test already carries storefront',
      result: undefined,
    });
    expect(onSuccess).not.toHaveBeenCalled();

    await act(() => result.current.submit());
    expect(result.current).toMatchObject({ busy: true, error: undefined, result: 'second time' });
    expect(onSuccess).toHaveBeenCalledTimes(1);
  });

  it('shows an error thrown by onSuccess like the action’s own', async () => {
    const { result } = renderHook(() =>
      useSubmitAction(
        async () => 'kept',
        () => {
          throw new Error('refresh failed');
        },
      ),
    );

    await act(() => result.current.submit());
    expect(result.current).toMatchObject({ busy: false, error: 'refresh failed', result: 'kept' });
  });
});
