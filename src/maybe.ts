// A value now or later. The SQLite store answers synchronously and the PostgreSQL store with a
// promise; code on the request path passes either along with `then`, so a SQLite request runs from
// its hook to its answer without a promise, a microtask or a turn of the event loop in between
// (with callback-style hooks, measured: the empty read from 27% to 34% of the bench's baseline).
export type Maybe<T> = T | Promise<T>;

/** f applied to the value: at once when it is here, when it arrives when it is a promise. */
export function then<T, U>(value: Maybe<T>, f: (value: T) => Maybe<U>): Maybe<U> {
  return value instanceof Promise ? value.then(f) : f(value);
}

/** Like `then`, for a failure: `onError` sees a synchronous throw and a rejection alike. */
export function guarded<T>(fn: () => Maybe<T>, onError: (err: unknown) => never): Maybe<T> {
  let value: Maybe<T>;
  try {
    value = fn();
  } catch (err) {
    onError(err);
  }
  return value instanceof Promise ? value.catch(onError) : value;
}
