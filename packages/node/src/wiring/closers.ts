/** The shutdowns of what `Node.init` built, run in reverse order of construction. */
import type {Logger} from "../logger.ts";

/** A component's shutdown. */
export interface Closer {
  name: string;
  close(): Promise<void> | void;
}

/**
 * Where each wiring step puts the shutdown of what it built, as soon as it is built: a step that
 * fails half-way leaves what it had built to be closed with the rest.
 */
export type Closers = Closer[];

/** Runs every shutdown in reverse order; a failure is logged and the others still run. */
export async function closeAll(closers: Closers, logger: Logger): Promise<void> {
  for (const closer of [...closers].reverse()) {
    try {
      await closer.close();
      logger.debug({component: closer.name}, `${closer.name} closed`);
    } catch (e) {
      logger.error({component: closer.name, err: e}, `closing the ${closer.name} failed`);
    }
  }
}
