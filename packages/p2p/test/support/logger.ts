/** A logger that keeps every line, for tests that check what was logged and at which level. */
import type {Logger} from "@xchain/utils";

export interface LogLine {
  level: "debug" | "info" | "warn" | "error";
  context: Record<string, unknown>;
  message: string;
}

/** A logger writing into `lines` (its children too). */
export function recordingLogger(lines: LogLine[]): Logger {
  const at =
    (level: LogLine["level"]) =>
    (context: object | string, message?: string): void => {
      if (typeof context === "string") lines.push({level, context: {}, message: context});
      else lines.push({level, context: context as Record<string, unknown>, message: message ?? ""});
    };
  const logger: Logger = {
    debug: at("debug"),
    info: at("info"),
    warn: at("warn"),
    error: at("error"),
    child: () => logger,
  };
  return logger;
}
