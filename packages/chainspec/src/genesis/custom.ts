/**
 * `--network custom`: a genesis JSON file in the rskj/geth shape, validated strictly. A custom
 * chain runs regtest's rules (activation heights, difficulty, REMASC maturity) with the chain id
 * of its file:
 *
 * ```json
 * {
 *   "config": {"chainId": 99},
 *   "difficulty": "0x0000000001", "gasLimit": "0x989680",
 *   "timestamp": "0x00", "extraData": "0x", "coinbase": "0x3333…33", "minimumGasPrice": "0",
 *   "alloc": {"0xcd2a…d826": {"balance": "1000000", "nonce": "0", "code": "0x…", "storage": {"0x00": "0x01"}}}
 * }
 * ```
 * Required: config.chainId, difficulty, gasLimit, alloc. difficulty and gasLimit are hex whose bytes
 * are kept as written (docs/protocol/networks.md §2); numbers are JSON integers, decimal strings or 0x hex. `nonce` and
 * `mixhash` at the top level are accepted and ignored, as rskj ignores them.
 *
 * A geth genesis file reads as is: the other `config` keys (fork blocks, `ethash`, `clique`) and
 * geth's `mixHash`, `number`, `gasUsed` and `parentHash` are ignored and listed in `ignored` (a
 * custom chain runs regtest's rules); geth keys xchain cannot honour (`baseFeePerGas`, blob gas)
 * are refused with what to change.
 */
import {MAX_CHAIN_ID} from "@xchain/primitives";
import {bigIntToFixedBytes, bytesToBigInt, bytesToHex} from "@xchain/utils";
import {Chainspec} from "../chainspec.ts";
import {regtest} from "../networks/regtest.ts";
import {GenesisError, GenesisErrorCode} from "./errors.ts";
import {
  type JsonObject,
  readFixedHex,
  readHexBytes,
  readObject,
  readQuantity,
  readQuantityBytes,
  required,
} from "./jsonValues.ts";
import {GENESIS_COINBASE} from "./networks.ts";
import type {GenesisAllocAccount, GenesisParams} from "./types.ts";

/** Top-level keys of geth's genesis that say nothing xchain uses (the header fields of a block 0). */
const GETH_IGNORED_KEYS = ["mixHash", "number", "gasUsed", "parentHash"] as const;
/** Geth keys that describe what xchain does not have, with what to do instead. */
const GETH_UNSUPPORTED: Record<string, string> = {
  baseFeePerGas: "xchain has no base fee (legacy gas pricing): remove it; minimumGasPrice sets the floor",
  excessBlobGas: "xchain has no blobs: remove it",
  blobGasUsed: "xchain has no blobs: remove it",
};
/** Chain ids of Rootstock's public networks (xchain's mainnet and testnet too): a custom chain sharing one would accept their transactions. */
const PUBLIC_CHAIN_IDS: Record<number, string> = {30: "mainnet", 31: "testnet"};

const TOP_LEVEL_KEYS = [
  "config",
  "difficulty",
  "gasLimit",
  "timestamp",
  "extraData",
  "coinbase",
  "minimumGasPrice",
  "alloc",
  "nonce",
  "mixhash",
  ...GETH_IGNORED_KEYS,
] as const;
const ACCOUNT_KEYS = ["balance", "nonce", "code", "storage"] as const;
const ADDRESS_KEY = /^(0x)?[0-9a-fA-F]{40}$/;

/** A custom network: regtest's rules with the file's chain id, and the file's genesis. */
export interface CustomNetwork {
  chainspec: Chainspec;
  genesis: GenesisParams;
  /** Keys of the file that were read and ignored (geth's fork schedule and block-0 fields), as dotted paths. */
  ignored: string[];
}

/** The chainspec of a custom chain: regtest's parameters with `chainId`. */
export function customChainspec(chainId: number): Chainspec {
  return new Chainspec({...regtest, name: "custom", chainId});
}

/** Parses and validates a custom genesis file's text; throws `GenesisError` naming the bad key. */
export function parseCustomGenesis(text: string): CustomNetwork {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new GenesisError({code: GenesisErrorCode.INVALID_JSON, reason: e instanceof Error ? e.message : String(e)});
  }
  const unsupported = Object.keys(readObject(json, "")).find((k) => Object.hasOwn(GETH_UNSUPPORTED, k));
  if (unsupported !== undefined) {
    throw new GenesisError({
      code: GenesisErrorCode.UNSUPPORTED_KEY,
      key: unsupported,
      advice: GETH_UNSUPPORTED[unsupported] as string,
    });
  }
  const root = readObject(json, "", TOP_LEVEL_KEYS);
  const config = readObject(required(root, "config", "config"), "config");
  const chainId = readChainId(required(config, "chainId", "config.chainId"));
  const ignored = [
    ...Object.keys(config)
      .filter((k) => k !== "chainId")
      .map((k) => `config.${k}`),
    ...GETH_IGNORED_KEYS.filter((k) => Object.hasOwn(root, k)),
  ];
  const difficultyBytes = readQuantityBytes(required(root, "difficulty", "difficulty"), "difficulty", 32);
  // rskj reads difficulty as a Java signed number: positive, so no top bit (docs/protocol/encoding.md).
  if (bytesToBigInt(difficultyBytes) === 0n || (difficultyBytes[0] as number) >= 0x80) {
    throw new GenesisError({
      code: GenesisErrorCode.BAD_VALUE,
      key: "difficulty",
      expected: "hex of a positive difficulty without the top bit set",
    });
  }
  const gasLimitBytes = readQuantityBytes(required(root, "gasLimit", "gasLimit"), "gasLimit", 32);
  // Block 1 must stay within 1/1024 of genesis and above the minimum, so a smaller genesis limit is a dead chain.
  if (bytesToBigInt(gasLimitBytes) < regtest.minGasLimit) {
    throw new GenesisError({
      code: GenesisErrorCode.BAD_VALUE,
      key: "gasLimit",
      expected: `hex of a gas limit of at least ${regtest.minGasLimit}`,
    });
  }
  return {
    chainspec: customChainspec(chainId),
    genesis: {
      header: {
        difficultyBytes,
        gasLimitBytes,
        timestamp: Number(optional(root, "timestamp", (v) => readQuantity(v, "timestamp", 53), 0n)),
        extraData: optional(root, "extraData", readExtraData, new Uint8Array(0)),
        coinbase: optional(root, "coinbase", (v) => readFixedHex(v, "coinbase", 20), GENESIS_COINBASE),
        minimumGasPrice: optional(root, "minimumGasPrice", (v) => readQuantity(v, "minimumGasPrice", 255), 0n),
      },
      alloc: readAlloc(readObject(required(root, "alloc", "alloc"), "alloc")),
    },
    ignored,
  };
}

/** The chain id, refused with the reason when transactions could not be signed for it or would replay. */
function readChainId(value: unknown): number {
  const chainId = Number(readQuantity(value, "config.chainId", 32));
  // A signed transaction's v is one byte, chainId * 2 + 35 or 36 (docs/protocol/transactions.md), which bounds the chain id.
  if (chainId < 1 || chainId > MAX_CHAIN_ID) {
    throw new GenesisError({
      code: GenesisErrorCode.BAD_VALUE,
      key: "config.chainId",
      expected: `1 to ${MAX_CHAIN_ID} (a transaction's v, chainId * 2 + 36, is one byte)`,
    });
  }
  const network = PUBLIC_CHAIN_IDS[chainId];
  if (network !== undefined) {
    throw new GenesisError({
      code: GenesisErrorCode.BAD_VALUE,
      key: "config.chainId",
      expected: `another id than ${chainId}, which is Rootstock's ${network} (and xchain's --network ${network}): transactions signed for one chain would be valid on the other`,
    });
  }
  return chainId;
}

/**
 * The genesis extraData: a header's extraData is at most `maxExtraDataSize` (32) bytes
 * (docs/protocol/header.md), and a block 0 that breaks it would be a header no peer accepts.
 */
function readExtraData(value: unknown): Uint8Array {
  const bytes = readHexBytes(value, "extraData");
  if (bytes.length > regtest.maxExtraDataSize) {
    throw new GenesisError({
      code: GenesisErrorCode.BAD_VALUE,
      key: "extraData",
      expected: `0x-prefixed hex of at most ${regtest.maxExtraDataSize} bytes (a header's extraData limit), not ${bytes.length} bytes`,
    });
  }
  return bytes;
}

function optional<T>(object: JsonObject, name: string, read: (value: unknown) => T, fallback: T): T {
  return Object.hasOwn(object, name) ? read(object[name]) : fallback;
}

function readAlloc(alloc: JsonObject): GenesisAllocAccount[] {
  const seen = new Set<string>();
  return Object.entries(alloc).map(([addressKey, value]) => {
    const path = `alloc.${addressKey}`;
    if (!ADDRESS_KEY.test(addressKey)) {
      throw new GenesisError({code: GenesisErrorCode.BAD_VALUE, key: path, expected: "a 20-byte hex address key"});
    }
    const address = readFixedHex(addressKey.startsWith("0x") ? addressKey : `0x${addressKey}`, path, 20);
    const normalized = bytesToHex(address);
    if (seen.has(normalized)) throw new GenesisError({code: GenesisErrorCode.DUPLICATE_ACCOUNT, key: path});
    seen.add(normalized);
    return readAccount(address, readObject(value, path, ACCOUNT_KEYS), path);
  });
}

function readAccount(address: Uint8Array, account: JsonObject, path: string): GenesisAllocAccount {
  const result: GenesisAllocAccount = {
    address,
    balance: readQuantity(required(account, "balance", `${path}.balance`), `${path}.balance`, 255),
  };
  if (Object.hasOwn(account, "nonce")) result.nonce = readQuantity(account.nonce, `${path}.nonce`, 64);
  if (Object.hasOwn(account, "code")) result.code = readHexBytes(account.code, `${path}.code`);
  if (Object.hasOwn(account, "storage")) {
    const storage = readObject(account.storage, `${path}.storage`);
    result.storage = Object.entries(storage).map(([slot, value]) => [
      word(readHexBytes(slot, `${path}.storage.${slot}`, 32)),
      word(readHexBytes(value, `${path}.storage.${slot}`, 32)),
    ]);
  }
  return result;
}

/** Left-pads to a 32-byte storage word. */
function word(bytes: Uint8Array): Uint8Array {
  return bigIntToFixedBytes(bytesToBigInt(bytes), 32);
}
