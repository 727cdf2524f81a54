/**
 * The gateway's keys file (`<datadir>/gateway-keys.json`, docs/gateway.md): per key its public id,
 * the SHA-256 of its secret, a label, what it may call and its limits. Parsing is strict: an
 * unknown field or a bad value is a `KeysFileError` naming the file and the path of the value.
 */
import {readFile, rename, writeFile} from "node:fs/promises";
import {NodeError} from "@xchain/utils";
import {RPC_MODULE_NAMES} from "../options.ts";

/** What a key may call. */
export interface KeyPermissions {
  /** Namespaces whose methods it may call (restricted methods excepted). */
  namespaces: string[];
  /** Single methods granted besides the namespaces, restricted ones (`xchain_getStorageBytesAt`) included. */
  methods: string[];
  /** Whether its eth_call/eth_estimateGas/debug_traceCall take a state override; unset, `rpc.allowCallStateOverride` decides. */
  stateOverride?: boolean;
}

/** What a key may use. */
export interface KeyLimits {
  /** Requests per second (a batch counts its requests), refilled continuously. */
  requestsPerSecond: number;
  /** Requests it may send at once on a full bucket. */
  burst: number;
  /** Most requests in one batch (the node's `rpc.maxBatchSize` caps it). */
  maxBatchSize: number;
  /** WebSocket connections it may hold open at once. */
  maxWsConnections: number;
  /** Subscriptions its connections may hold together. */
  maxSubscriptions: number;
  /** Most blocks one eth_getLogs range may cover (-32005 beyond); unset, no per-key cap. */
  logsMaxBlockRange?: number;
  /** Most blocks one trace_filter may cover; the node's `rpc.trace.maxBlockRange` caps it. */
  traceMaxBlockRange?: number;
}

/** One key as the file stores it. */
export interface ApiKeyRecord {
  /** Public and short: what logs name the key by. */
  id: string;
  /** SHA-256 of the secret, 64 hex digits. */
  sha256: string;
  label: string;
  /** When it was added, ISO 8601. */
  created: string;
  permissions: KeyPermissions;
  limits: KeyLimits;
}

/** The file's content. */
export interface KeysFile {
  version: 1;
  keys: ApiKeyRecord[];
}

/** The public read and send set: no evm, personal, debug, trace, sco, admin, mnr, txpool or db unless granted. */
export const DEFAULT_NAMESPACES: readonly string[] = ["eth", "net", "web3", "xchain"];

/** The permissions of a key added without any. */
export const defaultKeyPermissions = (): KeyPermissions => ({namespaces: [...DEFAULT_NAMESPACES], methods: []});

/** The limits of a key added without any. */
export const defaultKeyLimits = (): KeyLimits => ({
  requestsPerSecond: 100,
  burst: 200,
  maxBatchSize: 50,
  maxWsConnections: 10,
  maxSubscriptions: 100,
});

/** Each reason the gateway cannot start. */
export enum GatewayErrorCode {
  /** The keys file cannot be read or is not valid. */
  KEYS_FILE_INVALID = "GATEWAY_KEYS_FILE_INVALID",
  /** `rpc.gateway.enabled` without `rpc.gateway.keysFile`. */
  KEYS_FILE_UNSET = "GATEWAY_KEYS_FILE_UNSET",
}

/** Each code with its metadata. */
export type GatewayErrorType =
  | {code: GatewayErrorCode.KEYS_FILE_INVALID; path: string; reason: string}
  | {code: GatewayErrorCode.KEYS_FILE_UNSET};

/** The gateway cannot start; the message says why. */
export class GatewayError extends NodeError<GatewayErrorType> {}

/** A keys file that cannot be read or is not valid. */
export class KeysFileError extends GatewayError {
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super({code: GatewayErrorCode.KEYS_FILE_INVALID, path, reason}, `gateway keys file ${path}: ${reason}`);
  }
}

const ID = /^[A-Za-z0-9_-]{1,32}$/;
const SHA256 = /^[0-9a-f]{64}$/;
const METHOD = /^[a-z]+_[A-Za-z0-9]+$/;
const LIMIT_NAMES: readonly (keyof KeyLimits)[] = [
  "requestsPerSecond",
  "burst",
  "maxBatchSize",
  "maxWsConnections",
  "maxSubscriptions",
  "logsMaxBlockRange",
  "traceMaxBlockRange",
];

/** Reads and parses `path`; a missing file is an empty one. */
export async function readKeysFile(path: string): Promise<KeysFile> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return {version: 1, keys: []};
    throw new KeysFileError(path, (e as Error).message);
  }
  return parseKeysFile(text, path);
}

/** Writes `file` to `path` through a temporary file and a rename, readable by its owner only. */
export async function writeKeysFile(path: string, file: KeysFile): Promise<void> {
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(file, null, 2)}\n`, {mode: 0o600});
  // A running node watching the file sees it change at once, never half-written.
  await rename(temporary, path);
}

/** Parses the text of a keys file; `path` names it in errors. */
export function parseKeysFile(text: string, path: string): KeysFile {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new KeysFileError(path, `not JSON: ${(e as Error).message}`);
  }
  const fail = (at: string, what: string): never => {
    throw new KeysFileError(path, `${at}: ${what}`);
  };
  const top = objectWith(raw, "(top level)", ["version", "keys"], fail);
  if (top.version !== 1) fail("version", `expected 1, got ${JSON.stringify(top.version)}`);
  if (!Array.isArray(top.keys)) fail("keys", "expected an array");
  const keys = (top.keys as unknown[]).map((entry, i) => parseRecord(entry, `keys[${i}]`, fail));
  const ids = new Set<string>();
  // One secret under two records would leave one of them unrevokable (docs/gateway.md §1).
  const idsByHash = new Map<string, string>();
  keys.forEach((key, i) => {
    if (ids.has(key.id)) fail(`keys[${i}].id`, `duplicate id ${key.id}`);
    ids.add(key.id);
    const first = idsByHash.get(key.sha256);
    if (first !== undefined) fail(`keys[${i}].sha256`, `key ${key.id} has the same sha256 as key ${first}`);
    idsByHash.set(key.sha256, key.id);
  });
  return {version: 1, keys};
}

type Fail = (at: string, what: string) => never;

function parseRecord(raw: unknown, at: string, fail: Fail): ApiKeyRecord {
  const entry = objectWith(raw, at, ["id", "sha256", "label", "created", "permissions", "limits"], fail);
  const id = text(entry.id, `${at}.id`, fail);
  if (!ID.test(id)) fail(`${at}.id`, "expected 1 to 32 letters, digits, _ or -");
  const sha256 = text(entry.sha256, `${at}.sha256`, fail);
  if (!SHA256.test(sha256)) fail(`${at}.sha256`, "expected 64 lower-case hex digits");
  return {
    id,
    sha256,
    label: entry.label === undefined ? "" : text(entry.label, `${at}.label`, fail),
    created: entry.created === undefined ? "" : text(entry.created, `${at}.created`, fail),
    permissions: parsePermissions(entry.permissions, `${at}.permissions`, fail),
    limits: parseLimits(entry.limits, `${at}.limits`, fail),
  };
}

function parsePermissions(raw: unknown, at: string, fail: Fail): KeyPermissions {
  const permissions = defaultKeyPermissions();
  if (raw === undefined) return permissions;
  const entry = objectWith(raw, at, ["namespaces", "methods", "stateOverride"], fail);
  if (entry.namespaces !== undefined) {
    permissions.namespaces = texts(entry.namespaces, `${at}.namespaces`, fail);
    for (const name of permissions.namespaces) {
      if (!(RPC_MODULE_NAMES as readonly string[]).includes(name)) {
        fail(`${at}.namespaces`, `unknown namespace ${name} (one of ${RPC_MODULE_NAMES.join(", ")})`);
      }
    }
  }
  if (entry.methods !== undefined) {
    permissions.methods = texts(entry.methods, `${at}.methods`, fail);
    for (const name of permissions.methods) {
      if (!METHOD.test(name)) fail(`${at}.methods`, `${JSON.stringify(name)} is not a method name`);
    }
  }
  if (entry.stateOverride !== undefined) {
    if (typeof entry.stateOverride !== "boolean") fail(`${at}.stateOverride`, "expected true or false");
    permissions.stateOverride = entry.stateOverride as boolean;
  }
  return permissions;
}

function parseLimits(raw: unknown, at: string, fail: Fail): KeyLimits {
  const limits: KeyLimits = defaultKeyLimits();
  if (raw === undefined) return limits;
  const entry = objectWith(raw, at, LIMIT_NAMES, fail);
  for (const name of LIMIT_NAMES) {
    const value = entry[name];
    if (value === undefined) continue;
    if (typeof value !== "number" || !Number.isInteger(value) || value < 1 || value > 1_000_000_000) {
      fail(`${at}.${name}`, `expected an integer 1..1000000000, got ${JSON.stringify(value)}`);
    }
    limits[name] = value as number;
  }
  return limits;
}

function objectWith(raw: unknown, at: string, allowed: readonly string[], fail: Fail): Record<string, unknown> {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return fail(at, "expected an object");
  for (const name of Object.keys(raw)) {
    if (!allowed.includes(name)) fail(at, `unknown field ${name} (known: ${allowed.join(", ")})`);
  }
  return raw as Record<string, unknown>;
}

function text(raw: unknown, at: string, fail: Fail): string {
  return typeof raw === "string" ? raw : fail(at, `expected a string, got ${JSON.stringify(raw)}`);
}

function texts(raw: unknown, at: string, fail: Fail): string[] {
  if (!Array.isArray(raw) || raw.some((v) => typeof v !== "string")) return fail(at, "expected an array of strings");
  return [...(raw as string[])];
}
