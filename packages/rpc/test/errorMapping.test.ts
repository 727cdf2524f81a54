/**
 * The mapping of typed errors that can reach RPC handlers to wire codes (docs/rpc.md §7,
 * docs/protocol/errors.md): each domain error a precise code, a fault of the node -32603 with its
 * cause logged.
 */
import {ChainError, ChainErrorCode} from "@xchain/chain";
import {DatabaseError, DatabaseErrorCode} from "@xchain/db";
import {
  ExecutionInterruptedCode,
  ExecutionInterruptedError,
  NativeContractErrorCode,
  NativeContractUnavailableError,
  TransactionInvalidCode,
  TransactionInvalidError,
} from "@xchain/execution";
import {MinerError, MinerErrorCode} from "@xchain/miner";
import {P2PError, P2PErrorCode} from "@xchain/p2p";
import {RlpError, RlpErrorCode, TransactionDecodeError, TransactionDecodeErrorCode} from "@xchain/primitives";
import {ForkError, ForkErrorCode, StateError, StateErrorCode} from "@xchain/state";
import {TxPoolError, TxPoolErrorCode} from "@xchain/txpool";
import {NodeError, noopLogger} from "@xchain/utils";
import {describe, expect, it} from "vitest";
import {createErrorMapper} from "../src/errorMapping.ts";
import {KeystoreBusyCode, KeystoreBusyError} from "../src/keystoreBusy.ts";
import {KeyfileErrorCode, KeystoreErrorCode} from "../src/keystoreRefusals.ts";

const HASH = `0x${"ab".repeat(32)}`;

const TABLE: [string, Error, number][] = [
  [
    "TxPoolError (any code)",
    new TxPoolError({code: TxPoolErrorCode.NONCE_TOO_LOW, nonce: 0n, accountNonce: 1n}),
    -32010,
  ],
  ["MinerError NOT_ALLOWED", new MinerError({code: MinerErrorCode.NOT_ALLOWED, reason: "no"}), -32602],
  ["MinerError WORK_NOT_FOUND", new MinerError({code: MinerErrorCode.WORK_NOT_FOUND}), -33000],
  ["MinerError RATE_LIMITED", new MinerError({code: MinerErrorCode.RATE_LIMITED, retryAfterMs: 5}), -33000],
  [
    "TransactionDecodeError",
    new TransactionDecodeError({code: TransactionDecodeErrorCode.NUMBER_OUT_OF_RANGE, field: "value"}),
    -32602,
  ],
  [
    "TransactionInvalidError",
    new TransactionInvalidError({code: TransactionInvalidCode.INTRINSIC_GAS_TOO_LOW, gasLimit: 1n, intrinsicGas: 2n}),
    -32000,
  ],
  ["ExecutionInterruptedError", new ExecutionInterruptedError({code: ExecutionInterruptedCode.ABORTED}), -32011],
  ["P2PError INVALID_BAN_ADDRESS", new P2PError({code: P2PErrorCode.INVALID_BAN_ADDRESS, address: "x"}), -32602],
  ["ChainError UNKNOWN_BLOCK", new ChainError({code: ChainErrorCode.UNKNOWN_BLOCK, hash: HASH}), -32600],
  ["KeystoreBusyError", new KeystoreBusyError({code: KeystoreBusyCode.BUSY, running: 1, waiting: 4}, "busy"), -32005],
  // The keystore's refusals, mapped here rather than by personal_* (docs/protocol/keystore.md).
  ["a keystore refusal", new NodeError({code: KeystoreErrorCode.LOCKED}, "not unlocked: 0x01"), -32000],
  ["a keyfile refusal", new NodeError({code: KeyfileErrorCode.WRONG_PASSPHRASE}, "wrong passphrase"), -32000],
  // A database that cannot serve: damaged, or on a full disk (docs/operations.md §6).
  ["ChainError MISSING_DATA", new ChainError({code: ChainErrorCode.MISSING_DATA, hash: HASH, missing: "body"}), -32000],
  ["ChainError HEAD_MISSING", new ChainError({code: ChainErrorCode.HEAD_MISSING}), -32000],
  ["StateError NODE_MISSING", new StateError({code: StateErrorCode.NODE_MISSING, key: HASH}), -32000],
  [
    "DatabaseError CORRUPTED",
    new DatabaseError({code: DatabaseErrorCode.CORRUPTED, path: "/db", reason: "Corruption: block checksum mismatch"}),
    -32000,
  ],
  [
    "DatabaseError DISK_FULL",
    new DatabaseError({code: DatabaseErrorCode.DISK_FULL, path: "/db", reason: "IO error"}),
    -32000,
  ],
  // A forked state proves nothing of its own, nor reads a root of an earlier fork: said as such.
  [
    "StateError FORK_PROOF_UNAVAILABLE",
    new StateError(
      {code: StateErrorCode.FORK_PROOF_UNAVAILABLE, root: HASH},
      `no Merkle proof of the forked state ${HASH}`,
    ),
    -32000,
  ],
  [
    "StateError FORK_BASE_MISMATCH",
    new StateError(
      {code: StateErrorCode.FORK_BASE_MISMATCH, root: HASH, expected: HASH, actual: HASH},
      `the state ${HASH} is forked from another base`,
    ),
    -32000,
  ],
  // Fork mode (docs/forking.md §6, §1.3): a native contract the fork cannot execute, an upstream that fails a read.
  [
    "NativeContractUnavailableError",
    new NativeContractUnavailableError(
      {
        code: NativeContractErrorCode.UNAVAILABLE,
        address: "0x0000000000000000000000000000000001000006",
        name: "Bridge",
      },
      "the native contract Bridge (0x0000000000000000000000000000000001000006) cannot be executed in fork mode",
    ),
    -32000,
  ],
  [
    "ForkError UPSTREAM_METHOD_UNAVAILABLE",
    new ForkError(
      {
        code: ForkErrorCode.UPSTREAM_METHOD_UNAVAILABLE,
        url: "http://127.0.0.1:4444",
        key: "storage bytes 0x01",
        method: "rsk_getStorageBytesAt",
        rpcMessage: "no",
      },
      "upstream http://127.0.0.1:4444 does not serve rsk_getStorageBytesAt",
    ),
    -32000,
  ],
  // The fork's upstream failing a read: the request that needed it fails, naming the upstream and the key.
  [
    "ForkError UPSTREAM_UNREACHABLE",
    new ForkError(
      {code: ForkErrorCode.UPSTREAM_UNREACHABLE, url: "http://127.0.0.1:1", key: "block 3", attempts: 6, reason: "x"},
      "upstream http://127.0.0.1:1: reading block 3 failed 6 times (ECONNREFUSED)",
    ),
    -32000,
  ],
  [
    "ForkError OFFLINE_MISS",
    new ForkError(
      {code: ForkErrorCode.OFFLINE_MISS, key: "block 3", chainId: "31", forkBlock: HASH},
      "fork.offline: the cache holds no block 3",
    ),
    -32000,
  ],
  [
    "ForkError BLOCK_ABOVE_FORK",
    new ForkError({code: ForkErrorCode.BLOCK_ABOVE_FORK, number: 9, forkNumber: 8}),
    -32603,
  ],
  // Faults of the node: a closed database, stored data that does not decode.
  ["DatabaseError FAILED", new DatabaseError({code: DatabaseErrorCode.FAILED, path: "/db", reason: "closed"}), -32603],
  ["RlpError", new RlpError({code: RlpErrorCode.TRUNCATED, offset: 3}), -32603],
  ["P2PError NOT_RUNNING", new P2PError({code: P2PErrorCode.NOT_RUNNING}), -32603],
  ["a plain Error", new Error("bug"), -32603],
];

describe("createErrorMapper", () => {
  // A fault says nothing of its cause; a timeout says what rskj says (docs/protocol/errors.md).
  const wireMessage = (code: number, error: Error) =>
    code === -32603 ? "Internal server error" : code === -32011 ? "Execution has got timeout out." : error.message;
  const damage = (error: Error) =>
    (error instanceof DatabaseError && error.code === DatabaseErrorCode.CORRUPTED) ||
    (error instanceof StateError && error.code === StateErrorCode.NODE_MISSING) ||
    error instanceof ChainError;

  it.each(TABLE)("maps %s to %d", (_name, error, code) => {
    const mapped = createErrorMapper(noopLogger)(error, "eth_test");
    expect(mapped.code).toBe(code);
    if (damage(error) && code === -32000) {
      expect(mapped.message).toContain(error.message);
      expect(mapped.message).toContain("xchain db repair");
    } else {
      expect(mapped.message).toBe(wireMessage(code, error));
    }
  });

  it("relays the upstream's error answer to a forwarded request as it came (docs/forking.md §5)", () => {
    const error = new ForkError(
      {
        code: ForkErrorCode.FORWARDED_ERROR,
        url: "http://127.0.0.1:1",
        method: "eth_call",
        rpcCode: 3,
        rpcMessage: "execution reverted: no",
        rpcData: "0x08c379a0",
      },
      "execution reverted: no",
    );
    expect(createErrorMapper(noopLogger)(error, "eth_call").toObject()).toEqual({
      code: 3,
      message: "execution reverted: no",
      data: "0x08c379a0",
    });
  });

  it("logs the first missing database entry once, with what to do", () => {
    const logged: string[] = [];
    const logger = {...noopLogger, error: (_fields: unknown, message?: string) => logged.push(message ?? "")};
    const map = createErrorMapper(logger);
    for (let i = 0; i < 3; i++) map(new StateError({code: StateErrorCode.NODE_MISSING, key: HASH}), "eth_getBalance");
    expect(logged).toHaveLength(1);
    expect(logged[0]).toContain("xchain db verify");
  });

  it("logs the cause of a -32603 and sends none of it", () => {
    const logged: unknown[] = [];
    const logger = {...noopLogger, error: (fields: unknown) => logged.push(fields)};
    const error = new Error("secret detail");
    expect(createErrorMapper(logger)(error, "eth_test").toObject()).toEqual({
      code: -32603,
      message: "Internal server error",
    });
    // Under `err`, the one key pino serializes an Error under (message and stack).
    expect(logged).toEqual([{method: "eth_test", err: error}]);
  });
});
