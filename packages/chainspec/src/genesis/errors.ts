import {NodeError} from "@xchain/utils";

/** Why a custom genesis file is refused. */
export enum GenesisErrorCode {
  /** The text is not JSON. */
  INVALID_JSON = "GENESIS_INVALID_JSON",
  /** A key the schema does not know (a typo, or a field xchain does not support). */
  UNKNOWN_KEY = "GENESIS_UNKNOWN_KEY",
  /** A required key is absent. */
  MISSING_KEY = "GENESIS_MISSING_KEY",
  /** A value of the wrong type, format or range; `expected` says what was wanted. */
  BAD_VALUE = "GENESIS_BAD_VALUE",
  /** A geth key xchain cannot honour; `advice` says what to change. */
  UNSUPPORTED_KEY = "GENESIS_UNSUPPORTED_KEY",
  /** Two alloc entries name the same address (keys differing only in case or `0x`). */
  DUPLICATE_ACCOUNT = "GENESIS_DUPLICATE_ACCOUNT",
}

/** Each code with its metadata; `key` is the dotted path of the offending key (`alloc.0x…balance`). */
export type GenesisErrorType =
  | {code: GenesisErrorCode.INVALID_JSON; reason: string}
  | {code: GenesisErrorCode.UNKNOWN_KEY; key: string}
  | {code: GenesisErrorCode.MISSING_KEY; key: string}
  | {code: GenesisErrorCode.BAD_VALUE; key: string; expected: string; found?: string}
  | {code: GenesisErrorCode.UNSUPPORTED_KEY; key: string; advice: string}
  | {code: GenesisErrorCode.DUPLICATE_ACCOUNT; key: string};

/** A custom genesis file that does not follow the schema. */
export class GenesisError extends NodeError<GenesisErrorType> {
  constructor(type: GenesisErrorType) {
    super(type, describe(type));
  }
}

function describe(t: GenesisErrorType): string {
  switch (t.code) {
    case GenesisErrorCode.INVALID_JSON:
      return `genesis file is not JSON: ${t.reason}`;
    case GenesisErrorCode.UNKNOWN_KEY:
      return `genesis: unknown key "${t.key}"`;
    case GenesisErrorCode.MISSING_KEY:
      return `genesis: missing key "${t.key}"`;
    case GenesisErrorCode.BAD_VALUE:
      return `genesis: "${t.key}" must be ${t.expected}${t.found === undefined ? "" : `, not ${t.found}`}`;
    case GenesisErrorCode.UNSUPPORTED_KEY:
      return `genesis: "${t.key}" is not supported: ${t.advice}`;
    case GenesisErrorCode.DUPLICATE_ACCOUNT:
      return `genesis: account "${t.key}" appears twice in alloc`;
  }
}
