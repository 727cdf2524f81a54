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
  /** Two listeners (`key` and `otherKey`) given the same port. */
  SAME_PORT = "CONFIG_SAME_PORT",
  /** A listener's port is taken by another process (found by binding it before start-up). */
  PORT_IN_USE = "CONFIG_PORT_IN_USE",
  /** A `p2p.bootnodes` entry that is not a multiaddr ending in `/p2p/<peer id>`. */
  BAD_BOOTNODE = "CONFIG_BAD_BOOTNODE",
  /** The data directory cannot be created (or is not a directory). */
  DATADIR_UNCREATABLE = "CONFIG_DATADIR_UNCREATABLE",
}

/** Each code with its metadata; `key` is the dotted key (`rpc.http.port`). */
export type ConfigErrorType =
  | {code: ConfigErrorCode.FILE_UNREADABLE; path: string; reason: string}
  | {code: ConfigErrorCode.TOML_SYNTAX; path: string; line: number; column: number; reason: string; excerpt: string}
  | {code: ConfigErrorCode.UNKNOWN_KEY; key: string; source: string; validKeys: string[]}
  | {code: ConfigErrorCode.BAD_VALUE; key: string; source: string; value: string; expected: string}
  | {code: ConfigErrorCode.CONFLICT; key: string; reason: string}
  | {code: ConfigErrorCode.RISKY; key: string; risk: string}
  | {code: ConfigErrorCode.SAME_PORT; key: string; otherKey: string; port: number}
  | {code: ConfigErrorCode.PORT_IN_USE; key: string; host: string; port: number}
  | {code: ConfigErrorCode.BAD_BOOTNODE; key: string; value: string; reason: string}
  | {code: ConfigErrorCode.DATADIR_UNCREATABLE; key: string; path: string; reason: string};

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
      // The compiler's form (`file:line:column: message`), which editors and terminals link to, then the lines with a caret.
      return `${t.path}:${t.line}:${t.column}: not valid TOML: ${t.reason}\n${t.excerpt}`;
    case ConfigErrorCode.UNKNOWN_KEY:
      return `unknown key "${t.key}" (${t.source}); valid keys here: ${t.validKeys.join(", ")}`;
    case ConfigErrorCode.BAD_VALUE:
      return `bad value for ${t.key} (${t.source}): ${t.value}; expected ${t.expected}`;
    case ConfigErrorCode.CONFLICT:
      return `${t.key}: ${t.reason}`;
    case ConfigErrorCode.RISKY:
      return `refusing to start: ${t.risk}; set ${t.key} = true (--${t.key}) to accept the risk`;
    case ConfigErrorCode.SAME_PORT:
      return `${t.key}: ${t.port} is also ${t.otherKey}; give each listener its own port`;
    case ConfigErrorCode.PORT_IN_USE:
      return `${t.key}: ${t.port} is already in use (on ${t.host})`;
    case ConfigErrorCode.BAD_BOOTNODE:
      return `${t.key}: ${JSON.stringify(t.value)} is not a bootnode multiaddr: ${t.reason}`;
    case ConfigErrorCode.DATADIR_UNCREATABLE:
      // The reason names the path and the component that failed (DirectoryError).
      return `${t.key}: ${t.reason}`;
  }
}
