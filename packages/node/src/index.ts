export * from "./cli/program.ts";
export * from "./config/errors.ts";
export {type ConfigSources, resolveNodeOptions} from "./config/load.ts";
export * from "./errors.ts";
export {createLogger, LOG_LEVELS, type Logger, type LogLevel} from "./logger.ts";
export * from "./node.ts";
export * from "./options.ts";
export * from "./verify/headerFileVerifier.ts";
