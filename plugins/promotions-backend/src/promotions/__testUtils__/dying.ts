/**
 * `target` as seen by a process that dies at a call: the first call for
 * which `diesAt` says yes never answers (the process is gone), and nothing
 * after it runs. Every other call goes through.
 */
export function dyingAt<T extends object>(target: T, diesAt: (method: keyof T, args: unknown[]) => boolean): T {
  let dead = false;
  return new Proxy(target, {
    get(object, property, receiver) {
      const value = Reflect.get(object, property, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        if (dead || diesAt(property as keyof T, args)) {
          dead = true;
          return new Promise(() => {});
        }
        return value.apply(object, args);
      };
    },
  });
}
