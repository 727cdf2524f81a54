/**
 * The value types of configuration keys and their parsers. A value comes either from TOML
 * (already typed: boolean, number, string, array) or from a flag (always a string, or `true` for
 * a bare boolean flag); both go through the same checks, so a key accepts the same values everywhere.
 */
import {homedir} from "node:os";
import {join} from "node:path";
import {bytesToPrefixedHex, hexToBytes} from "@xchain/utils";
import {ConfigError, ConfigErrorCode} from "./errors.ts";

/** The type of one key, with its constraints. */
export type ValueKind =
  | {type: "string"; choices?: readonly string[]}
  /** A file or directory; a leading `~/` is the home directory. */
  | {type: "path"}
  | {type: "boolean"}
  | {type: "integer"; min: number; max: number}
  /** A non-negative amount that may exceed 2^53 (wei): a TOML integer or a decimal/0x string. */
  | {type: "bigint"}
  /** A 20-byte address, 0x-prefixed hex. */
  | {type: "address"}
  /**
   * A list of strings: a TOML array, or comma-separated in a flag; at most `maxItems` of them, each
   * at most `maxLength` characters, when given (checked before anything parses the strings).
   */
  | {type: "strings"; choices?: readonly string[]; maxItems?: number; maxLength?: number};

/** A value already parsed into its domain type. */
export type ConfigValue = string | boolean | number | bigint | Uint8Array | string[];

/** Where a value came from, named in error messages (`node.config.toml`, `--rpc.http.port`). */
export type ValueSource = string;

/** What a kind accepts, as error messages say it. */
export function expectedText(kind: ValueKind): string {
  switch (kind.type) {
    case "string":
      return kind.choices ? `one of ${kind.choices.join(", ")}` : "a string";
    case "path":
      return "a path";
    case "boolean":
      return "true or false";
    case "integer":
      return `an integer in ${kind.min}..${kind.max}`;
    case "bigint":
      return "a non-negative integer (decimal or 0x hex)";
    case "address":
      return "a 0x-prefixed 20-byte hex address";
    case "strings": {
      if (kind.choices) return `a list of: ${kind.choices.join(", ")}`;
      const count = kind.maxItems === undefined ? "a list of strings" : `a list of at most ${kind.maxItems} strings`;
      return kind.maxLength === undefined ? count : `${count} of at most ${kind.maxLength} characters each`;
    }
  }
}

/**
 * Parses `raw` as a value of `kind` for `key`; throws `ConfigError` BAD_VALUE naming the key and what it accepts.
 * `typed` is for TOML, whose values carry their type: there a quoted string is no integer or boolean
 * (`port = "4444"` is refused), while a flag, always text, is read as one.
 */
export function parseValue(
  key: string,
  kind: ValueKind,
  raw: unknown,
  source: ValueSource,
  typed = false,
): ConfigValue {
  const textForNumber = typed && typeof raw === "string" && (kind.type === "integer" || kind.type === "boolean");
  const value = textForNumber ? undefined : tryParse(kind, raw);
  if (value === undefined) {
    throw new ConfigError({
      code: ConfigErrorCode.BAD_VALUE,
      key,
      source,
      value: describeBadValue(kind, raw),
      expected: textForNumber ? `${expectedText(kind)}, unquoted` : expectedText(kind),
    });
  }
  return value;
}

/** Longest value quoted whole in an error; a longer one is quoted in part, with its length. */
const QUOTED_MAX = 120;

/** The refused value as the error shows it: a list over its bounds says which bound, a long string is cut. */
function describeBadValue(kind: ValueKind, raw: unknown): string {
  if (kind.type === "strings") {
    const list: unknown[] = typeof raw === "string" ? splitList(raw) : Array.isArray(raw) ? raw : [];
    if (kind.maxItems !== undefined && list.length > kind.maxItems) return `a list of ${list.length} entries`;
    const index = list.findIndex((s) => typeof s === "string" && tooLong(kind, s));
    if (index >= 0) return `entry ${index + 1} ${quote(list[index] as string)}`;
  }
  return typeof raw === "string" ? quote(raw) : quote(String(raw), (t) => t);
}

/** `text` as `show` writes it (JSON-quoted by default), its start only when longer than QUOTED_MAX. */
function quote(text: string, show: (text: string) => string = JSON.stringify): string {
  if (text.length <= QUOTED_MAX) return show(text);
  return `${show(text.slice(0, QUOTED_MAX))}… (${text.length} characters)`;
}

function tooLong(kind: {maxLength?: number}, text: string): boolean {
  return kind.maxLength !== undefined && text.length > kind.maxLength;
}

function tryParse(kind: ValueKind, raw: unknown): ConfigValue | undefined {
  switch (kind.type) {
    case "string":
      return typeof raw === "string" && (!kind.choices || kind.choices.includes(raw)) ? raw : undefined;
    case "path":
      if (typeof raw !== "string" || raw.length === 0) return undefined;
      return raw === "~" || raw.startsWith("~/") ? join(homedir(), raw.slice(1)) : raw;
    case "boolean":
      if (typeof raw === "boolean") return raw;
      return raw === "true" ? true : raw === "false" ? false : undefined;
    case "integer": {
      const n = typeof raw === "string" && /^-?\d+$/.test(raw) ? Number(raw) : raw;
      return typeof n === "number" && Number.isSafeInteger(n) && n >= kind.min && n <= kind.max ? n : undefined;
    }
    case "bigint":
      return parseAmount(raw);
    case "address":
      return typeof raw === "string" && /^0x[0-9a-fA-F]{40}$/.test(raw) ? hexToBytes(raw) : undefined;
    case "strings": {
      const list = typeof raw === "string" ? splitList(raw) : raw;
      if (!Array.isArray(list) || !list.every((s): s is string => typeof s === "string")) return undefined;
      if (kind.maxItems !== undefined && list.length > kind.maxItems) return undefined;
      if (list.some((s) => tooLong(kind, s))) return undefined;
      return !kind.choices || list.every((s) => kind.choices?.includes(s)) ? list : undefined;
    }
  }
}

function parseAmount(raw: unknown): bigint | undefined {
  if (typeof raw === "number") return Number.isSafeInteger(raw) && raw >= 0 ? BigInt(raw) : undefined;
  if (typeof raw === "bigint") return raw >= 0n ? raw : undefined;
  if (typeof raw !== "string" || !/^(\d+|0x[0-9a-fA-F]+)$/.test(raw)) return undefined;
  return BigInt(raw);
}

function splitList(text: string): string[] {
  return text
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/** The value as TOML writes it (docs, the reference file): strings quoted, bytes as 0x hex. */
export function formatValue(value: ConfigValue | undefined): string {
  if (value === undefined) return "(unset)";
  if (value instanceof Uint8Array) return `"${bytesToPrefixedHex(value)}"`;
  if (Array.isArray(value)) return `[${value.map((s) => JSON.stringify(s)).join(", ")}]`;
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "bigint") return value <= BigInt(Number.MAX_SAFE_INTEGER) ? String(value) : `"${value}"`;
  return String(value);
}
