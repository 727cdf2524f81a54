/**
 * The execution package's options. Block execution has nothing to configure today (its rules are
 * the chainspec's); the type keeps `BlockExecutor` in the `(opts, modules)` shape of every component,
 * so that an option can be added without changing its callers.
 */
export type BlockExecutorOptions = Record<string, never>;
