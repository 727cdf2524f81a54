/**
 * What `xchain start` runs once its options are read: the preflight checks, then a node until SIGINT
 * or SIGTERM. Loaded by the command's action only, since it imports the whole node.
 */
import {checkRiskyConfigurations} from "../config/risks.ts";
import {NodeStartError, NodeStartErrorCode} from "../errors.ts";
import {createLogger} from "../logger.ts";
import {Node} from "../node.ts";
import type {NodeOptions} from "../options.ts";
import {preflight} from "../preflight.ts";
import {XCHAIN_VERSION} from "../version.ts";
import {watchNpmParent} from "./parentWatch.ts";

const EXIT_GRACE_MS = 5_000;
/**
 * A signal this soon after the first is the same stop request delivered twice: Ctrl-C in a terminal
 * reaches every process of the foreground group, and `npm start` forwards it to the node as well.
 */
const REPEAT_SIGNAL_MS = 1_000;

/** Checks what must hold before anything opens, then runs a node with `options` until a stop signal. */
export async function runNode(options: NodeOptions): Promise<void> {
  await preflight(options);
  await runUntilSignal(options);
}

/**
 * Runs a node until SIGINT or SIGTERM, then closes it; a second signal, at least `REPEAT_SIGNAL_MS`
 * after the first, exits at once.
 */
async function runUntilSignal(options: NodeOptions): Promise<void> {
  const logger = createLogger(options.log.level);
  checkRiskyConfigurations(options, logger);
  const controller = new AbortController();
  let firstSignalAt = 0;
  const stopped = new Promise<string>((resolve) => {
    const onSignal = (signal: NodeJS.Signals) => {
      if (controller.signal.aborted) {
        if (Date.now() - firstSignalAt < REPEAT_SIGNAL_MS) return;
        logger.warn(`${signal} again: exiting without a clean shutdown`);
        process.exit(1);
      }
      firstSignalAt = Date.now();
      controller.abort();
      resolve(signal);
    };
    process.on("SIGINT", onSignal);
    process.on("SIGTERM", onSignal);
    watchNpmParent(() => {
      logger.info("npm, which started this node, is gone");
      onSignal("SIGTERM");
    });
  });
  let node: Node;
  try {
    node = await Node.init(options, {logger, signal: controller.signal, version: XCHAIN_VERSION});
  } catch (e) {
    if (e instanceof NodeStartError && e.code === NodeStartErrorCode.ABORTED) {
      logger.info(`${await stopped} during start-up: stopped`);
      return;
    }
    throw e;
  }
  const signal = await stopped;
  logger.info(`${signal}: shutting down`);
  await node.close();
  logger.info("stopped");
  // Everything is closed, so the process ends by itself; if a stray handle kept it alive, end it anyway.
  setTimeout(() => {
    logger.warn(`still running ${EXIT_GRACE_MS} ms after shutdown: exiting`);
    process.exit(0);
  }, EXIT_GRACE_MS).unref();
}
