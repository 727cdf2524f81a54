/**
 * The logger every package writes to. It has pino's shape, so that the node's pino logger (and its
 * children) is one as it is; a package takes it in its modules and defaults to `noopLogger`.
 */

/** One level: context fields and a message (pino serializes an `err` field as an error), or a message alone. */
export interface LogFn {
  (context: object, message?: string): void;
  (message: string): void;
}

/** A pino-compatible logger. */
export interface Logger {
  debug: LogFn;
  info: LogFn;
  warn: LogFn;
  error: LogFn;
  /** A logger whose lines also carry `bindings` (the node gives each component `{module: "<name>"}`). */
  child(bindings: Record<string, unknown>): Logger;
}

const discard: LogFn = () => undefined;

/** The logger that writes nothing (the default of every component, and of tests). */
export const noopLogger: Logger = {
  debug: discard,
  info: discard,
  warn: discard,
  error: discard,
  child: () => noopLogger,
};
