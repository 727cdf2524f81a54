/**
 * The node's logger: pino, human-readable (pino-pretty) on a terminal and JSON lines otherwise.
 * Both write synchronously on the calling thread, so nothing is lost when the process exits and no
 * worker thread delays start-up. Components get `logger.child({module})`.
 */
import type {Logger} from "@xchain/utils";
import pino from "pino";
import pretty from "pino-pretty";

export type {Logger} from "@xchain/utils";

/** The levels `log.level` accepts, most verbose first. */
export const LOG_LEVELS = ["trace", "debug", "info", "warn", "error", "fatal", "silent"] as const;

/** One of `LOG_LEVELS`. */
export type LogLevel = (typeof LOG_LEVELS)[number];

/** A root logger at `level`; `pretty` defaults to whether stdout is a terminal. */
export function createLogger(level: LogLevel, options: {pretty?: boolean} = {}): Logger {
  const usePretty = options.pretty ?? process.stdout.isTTY === true;
  const destination = usePretty
    ? pretty({
        colorize: true,
        sync: true,
        translateTime: "SYS:HH:MM:ss.l",
        ignore: "pid,hostname,module",
        messageFormat: "{if module}{module}: {end}{msg}",
      })
    : pino.destination({fd: 1, sync: true});
  return pino({level, base: undefined}, destination);
}
