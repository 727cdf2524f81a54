export {runCli} from "./cli/program.ts";
export {ConfigError, ConfigErrorCode, type ConfigErrorType} from "./config/errors.ts";
export {type ConfigSources, resolveNodeOptions} from "./config/load.ts";
export {NodeStartError, NodeStartErrorCode, type NodeStartErrorType} from "./errors.ts";
export {createLogger, LOG_LEVELS, type Logger, type LogLevel} from "./logger.ts";
export {Node} from "./node.ts";
export {defaultNodeOptions, type NodeOptions} from "./options.ts";
export {HeaderFileVerifier, type HeaderVerdict} from "./verify/headerFileVerifier.ts";
