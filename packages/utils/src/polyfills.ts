/**
 * `Promise.withResolvers` (ES2024) for Node 20: libp2p and its dependencies call it. Import this
 * module first in every entry point (the CLI does, and vitest's setup file).
 */
type Resolvers<T> = {promise: Promise<T>; resolve: (value: T) => void; reject: (reason?: unknown) => void};

const PromiseCtor = Promise as unknown as {withResolvers?: <T>() => Resolvers<T>};
PromiseCtor.withResolvers ??= <T>(): Resolvers<T> => {
  let resolve!: (value: T) => void;
  let reject!: (reason?: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return {promise, resolve, reject};
};
