/** Why a configuration (node.config.toml, dotted flags) is refused; start-up stops with the message. */
import {NodeError} from "@xchain/utils";

/** Each way a configuration can be wrong. */
export enum ConfigErrorCode {
  /** The file cannot be read. */
  FILE_UNREADABLE = "CONFIG_FILE_UNREADABLE",
  /** The file is not valid TOML. */
  TOML_SYNTAX = "CONFIG_TOML_SYNTAX",
  /** A key (in the file) that no option has; `validKeys` are those of the same table. */
  UNKNOWN_KEY = "CONFIG_UNKNOWN_KEY",
  /** A value of the wrong type, range or choice; `expected` says what is accepted. */
  BAD_VALUE = "CONFIG_BAD_VALUE",
  /** A value that is valid alone but not with the rest (the dev wallet on mainnet). */
  CONFLICT = "CONFIG_CONFLICT",
  /** A risky configuration (config/risks.ts) that its `unsafe.*` key, `key`, does not accept. */
  RISKY = "CONFIG_RISKY",
}

/** Each code with its metadata; `key` is the dotted key (`rpc.http.port`). */
export type ConfigErrorType =
  | {code: ConfigErrorCode.FILE_UNREADABLE; path: string; reason: string}
  | {code: ConfigErrorCode.TOML_SYNTAX; path: string; reason: string}
  | {code: ConfigErrorCode.UNKNOWN_KEY; key: string; source: string; validKeys: string[]}
  | {code: ConfigErrorCode.BAD_VALUE; key: string; source: string; value: string; expected: string}
  | {code: ConfigErrorCode.CONFLICT; key: string; reason: string}
  | {code: ConfigErrorCode.RISKY; key: string; risk: string};

/** A configuration that cannot start a node. */
export class ConfigError extends NodeError<ConfigErrorType> {
  constructor(type: ConfigErrorType) {
    super(type, describe(type));
  }
}

function describe(t: ConfigErrorType): string {
  switch (t.code) {
    case ConfigErrorCode.FILE_UNREADABLE:
      return `cannot read the config file ${t.path}: ${t.reason}`;
    case ConfigErrorCode.TOML_SYNTAX:
      return `${t.path} is not valid TOML: ${t.reason}`;
    case ConfigErrorCode.UNKNOWN_KEY:
      return `unknown key "${t.key}" (${t.source}); valid keys here: ${t.validKeys.join(", ")}`;
    case ConfigErrorCode.BAD_VALUE:
      return `bad value for ${t.key} (${t.source}): ${t.value}; expected ${t.expected}`;
    case ConfigErrorCode.CONFLICT:
      return `${t.key}: ${t.reason}`;
    case ConfigErrorCode.RISKY:
      return `refusing to start: ${t.risk}; set ${t.key} = true (--${t.key}) to accept the risk`;
  }
}
