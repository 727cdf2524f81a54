/**
 * Authorized votes counted as rskj counts them (docs/protocol/native-contracts.md §10.12): the fee
 * per kb's election and the lock whitelist, their answer codes, the getters that read them, and the
 * bytes they store under rskj's keys.
 */
import type {MerkleStateManager} from "@ethereumjs/statemanager";
import {Chainspec, getChainspec, regtestBridge} from "@xchain/chainspec";
import {hexToBytes} from "@xchain/utils";
import {beforeEach, describe, expect, it} from "vitest";
import {NativeContractFailure} from "../../../src/errors.ts";
import {AbiCallElection} from "../../../src/native/bridge/election.ts";
import {BridgeStorageError} from "../../../src/native/bridge/errors.ts";
import {base58Address} from "../../../src/native/bridge/federation.ts";
import {LockWhitelist} from "../../../src/native/bridge/lockWhitelist.ts";
import {longBytes} from "../../../src/native/bridge/serialization.ts";
import {BridgeKey} from "../../../src/native/bridge/storageKeys.ts";
import type {NativeCallContext} from "../../../src/native/dispatch/types.ts";
import {bridgeContext, bridgeState, runBridge, storedBytes} from "./bridgeContext.ts";

// rskj's regtest authorizers: keccak-256 of "auth-fee-per-kb", "auth-lock-whitelist", "auth-a"…"auth-c".
const FEE_AUTHORIZER = hexToBytes("53f8f6dabd612b6137215ddd7758bb5cdd638922");
const WHITELIST_AUTHORIZER = hexToBytes("87d2a0f33744929da08b65fd62b627ea52b25f8e");
const AUTH_A = "5252403bca6ac3c104abdd320a736fa38282045d";
const AUTH_B = "0d8c44bd578a4e7148d1758b3332b529e93e48c1";
const AUTH_C = "566bca18df14ed75efcc1a8a4f3947e81132dbbc";
const MINED = {localCall: false, transactionPublicKey: new Uint8Array(64).fill(1)} as const;

/** "setFeePerKb" in UTF-8, the function name rskj's fee election votes for. */
const SET_FEE_PER_KB = "7365744665655065724b62";
const HASH_1 = "11".repeat(20);
const HASH_2 = "22".repeat(20);
/** Regtest P2PKH (version 111) and P2SH (196) addresses of those hash160s. */
const P2PKH_1 = base58Address(111, hexToBytes(HASH_1));
const P2SH_1 = base58Address(196, hexToBytes(HASH_1));
const P2PKH_2 = base58Address(111, hexToBytes(HASH_2));

let state: MerkleStateManager;
beforeEach(async () => {
  state = await bridgeState();
});

const mined = (sender: Uint8Array | string, chainspec?: Chainspec): NativeCallContext =>
  bridgeContext(state, {...MINED, sender: typeof sender === "string" ? hexToBytes(sender) : sender}, chainspec);
const ethCall = (): NativeCallContext => bridgeContext(state);
const one = async (name: string, args: unknown[], context: NativeCallContext) =>
  (await runBridge(name, args, context))[0];

describe("voteFeePerKbChange", () => {
  it("regtest's single authorizer changes the fee at once; rskj's storage: the fee and a cleared election", async () => {
    expect(await one("voteFeePerKbChange", [200_000], mined(FEE_AUTHORIZER))).toBe(1n);
    expect(await one("getFeePerKb", [], ethCall())).toBe(200_000n);
    expect(await storedBytes(state, BridgeKey.feePerKb)).toBe("83030d40");
    expect(await storedBytes(state, BridgeKey.feePerKbElection)).toBe("c0");
    // Peg-out fees follow the fee voted: 200,000 × 654 bytes / 1000.
    expect(await one("getEstimatedFeesForNextPegOutEvent", [], ethCall())).toBe(130_800n);
  });

  it.each([
    [0n, -1n],
    [-5n, -1n],
    [5_000_001n, -2n],
    [2n ** 63n, -10n],
  ])("a fee of %s answers %s and stores nothing", async (fee, code) => {
    expect(await one("voteFeePerKbChange", [fee], mined(FEE_AUTHORIZER))).toBe(code);
    expect(await storedBytes(state, BridgeKey.feePerKb)).toBe("");
    expect(await storedBytes(state, BridgeKey.feePerKbElection)).toBe("");
    expect(await one("getFeePerKb", [], ethCall())).toBe(100_000n);
  });

  it("the maximum itself is accepted; anyone else gets -10, even for a fee past a long", async () => {
    expect(await one("voteFeePerKbChange", [5_000_000], mined(FEE_AUTHORIZER))).toBe(1n);
    expect(await one("voteFeePerKbChange", [300_000], mined(WHITELIST_AUTHORIZER))).toBe(-10n);
    expect(await one("voteFeePerKbChange", [2n ** 63n], mined(WHITELIST_AUTHORIZER))).toBe(-10n);
    expect(await one("getFeePerKb", [], ethCall())).toBe(5_000_000n);
  });

  it("with three authorizers a majority of two decides; the election is stored between votes", async () => {
    const regtest = getChainspec("regtest");
    const addresses = [AUTH_A, AUTH_B, AUTH_C].map((a) => hexToBytes(a));
    const bridge = {...regtestBridge, feePerKbChangeAuthorizer: {required: "majority" as const, addresses}};
    const three = new Chainspec({...regtest.params, bridge});
    expect(await one("voteFeePerKbChange", [200_000], mined(AUTH_A, three))).toBe(1n);
    expect(await one("getFeePerKb", [], ethCall())).toBe(100_000n);
    expect(await storedBytes(state, BridgeKey.feePerKbElection)).toBe(
      `e9d28b${SET_FEE_PER_KB}c58483030d40d594${AUTH_A}`,
    );
    // A second vote of the same voter for the same value is refused.
    expect(await one("voteFeePerKbChange", [200_000], mined(AUTH_A, three))).toBe(-1n);
    // 100 encodes as the single byte 0x64, 200,000 as 0x83…: rskj orders specs by signed bytes, so 0x83 first.
    expect(await one("voteFeePerKbChange", [100], mined(AUTH_C, three))).toBe(1n);
    expect(await storedBytes(state, BridgeKey.feePerKbElection)).toBe(
      `f84ed28b${SET_FEE_PER_KB}c58483030d40d594${AUTH_A}ce8b${SET_FEE_PER_KB}c164d594${AUTH_C}`,
    );
    expect(await one("voteFeePerKbChange", [200_000], mined(AUTH_B, three))).toBe(1n);
    expect(await one("getFeePerKb", [], ethCall())).toBe(200_000n);
    expect(await storedBytes(state, BridgeKey.feePerKbElection)).toBe("c0");
  });
});

describe("the lock whitelist", () => {
  it("one-off and unlimited entries: the getters in hash160 order and rskj's stored lists", async () => {
    expect(await one("addUnlimitedLockWhitelistAddress", [P2PKH_2], mined(WHITELIST_AUTHORIZER))).toBe(1n);
    expect(await one("addOneOffLockWhitelistAddress", [P2PKH_1, 1000], mined(WHITELIST_AUTHORIZER))).toBe(1n);
    expect(await one("getLockWhitelistSize", [], ethCall())).toBe(2n);
    expect(await one("getLockWhitelistAddress", [0], ethCall())).toBe(P2PKH_1);
    expect(await one("getLockWhitelistAddress", [1], ethCall())).toBe(P2PKH_2);
    expect(await one("getLockWhitelistAddress", [2], ethCall())).toBe("");
    expect(await one("getLockWhitelistAddress", [-1], ethCall())).toBe("");
    // The index is a Java int: 2^32 is 0.
    expect(await one("getLockWhitelistAddress", [2n ** 32n], ethCall())).toBe(P2PKH_1);
    expect(await one("getLockWhitelistEntryByAddress", [P2PKH_1], ethCall())).toBe(1000n);
    expect(await one("getLockWhitelistEntryByAddress", [P2PKH_2], ethCall())).toBe(0n);
    expect(await one("getLockWhitelistEntryByAddress", [base58Address(111, new Uint8Array(20))], ethCall())).toBe(-1n);
    expect(await one("getLockWhitelistEntryByAddress", ["not an address"], ethCall())).toBe(-1n);
    // [hash160, max value]* then the disable height (none: Integer.MAX_VALUE); the unlimited hash160s.
    expect(await storedBytes(state, BridgeKey.lockWhitelist)).toBe(`dd94${HASH_1}8203e8847fffffff`);
    expect(await storedBytes(state, BridgeKey.unlimitedLockWhitelist)).toBe(`d594${HASH_2}`);
  });

  it("an entry is keyed by its hash160: the P2SH form of a listed one is already there; stored, it reads back as P2PKH", async () => {
    expect(await one("addUnlimitedLockWhitelistAddress", [P2SH_1], mined(WHITELIST_AUTHORIZER))).toBe(1n);
    expect(await one("addOneOffLockWhitelistAddress", [P2PKH_1, 5], mined(WHITELIST_AUTHORIZER))).toBe(-1n);
    expect(await one("getLockWhitelistAddress", [0], ethCall())).toBe(P2PKH_1);
    expect(await one("getLockWhitelistEntryByAddress", [P2SH_1], ethCall())).toBe(0n);
  });

  it("remove: 1, then -1; the authorizer is asked before the address is parsed", async () => {
    await one("addOneOffLockWhitelistAddress", [P2PKH_1, 1000], mined(WHITELIST_AUTHORIZER));
    expect(await one("removeLockWhitelistAddress", ["bad"], mined(FEE_AUTHORIZER))).toBe(-10n);
    expect(await one("removeLockWhitelistAddress", ["bad"], mined(WHITELIST_AUTHORIZER))).toBe(-2n);
    expect(await one("removeLockWhitelistAddress", [P2PKH_1], mined(FEE_AUTHORIZER))).toBe(-10n);
    expect(await one("removeLockWhitelistAddress", [P2PKH_1], mined(WHITELIST_AUTHORIZER))).toBe(1n);
    expect(await one("removeLockWhitelistAddress", [P2PKH_1], mined(WHITELIST_AUTHORIZER))).toBe(-1n);
    expect(await one("getLockWhitelistSize", [], ethCall())).toBe(0n);
    expect(await storedBytes(state, BridgeKey.lockWhitelist)).toBe("c5847fffffff");
  });

  it("an authorized call that reads the whitelist stores it, as rskj saves what it read", async () => {
    expect(await one("removeLockWhitelistAddress", [P2PKH_1], mined(WHITELIST_AUTHORIZER))).toBe(-1n);
    expect(await storedBytes(state, BridgeKey.lockWhitelist)).toBe("c5847fffffff");
    expect(await storedBytes(state, BridgeKey.unlimitedLockWhitelist)).toBe("c0");
  });

  it("an unauthorized addition stores nothing; a bad address answers -2 to anyone", async () => {
    expect(await one("addOneOffLockWhitelistAddress", [P2PKH_1, 1000], mined(FEE_AUTHORIZER))).toBe(-10n);
    expect(await one("addOneOffLockWhitelistAddress", ["bad", 1000], mined(FEE_AUTHORIZER))).toBe(-2n);
    expect(await storedBytes(state, BridgeKey.lockWhitelist)).toBe("");
  });

  it("setLockWhitelistDisableBlockDelay: a positive int once, the disable height best + delay", async () => {
    expect(await one("setLockWhitelistDisableBlockDelay", [0], mined(WHITELIST_AUTHORIZER))).toBe(-2n);
    await expect(
      runBridge("setLockWhitelistDisableBlockDelay", [2n ** 31n], mined(WHITELIST_AUTHORIZER)),
    ).rejects.toBeInstanceOf(NativeContractFailure);
    expect(await one("setLockWhitelistDisableBlockDelay", [10], mined(WHITELIST_AUTHORIZER))).toBe(1n);
    expect(await one("setLockWhitelistDisableBlockDelay", [20], mined(WHITELIST_AUTHORIZER))).toBe(-1n);
    // The light client's head is Bitcoin regtest's genesis, height 0: disabled above 0 + 10.
    expect(await storedBytes(state, BridgeKey.lockWhitelist)).toBe("c10a");
  });

  it("a one-off maximum past a long fails the call; a negative one is stored as rskj writes it", async () => {
    await expect(
      runBridge("addOneOffLockWhitelistAddress", [P2PKH_1, 2n ** 63n], mined(WHITELIST_AUTHORIZER)),
    ).rejects.toBeInstanceOf(NativeContractFailure);
    expect(await one("addOneOffLockWhitelistAddress", [P2PKH_1, -1], mined(WHITELIST_AUTHORIZER))).toBe(1n);
    // BigInteger(-1)'s bytes are ff; read back unsigned, the entry's maximum is 255.
    expect(await storedBytes(state, BridgeKey.lockWhitelist)).toBe(`dc94${HASH_1}81ff847fffffff`);
    expect(await one("getLockWhitelistEntryByAddress", [P2PKH_1], ethCall())).toBe(255n);
  });
});

describe("the stored forms", () => {
  it("longBytes: Java's two's complement bytes for a negative long", () => {
    expect([-1n, -128n, -129n, -256n, 0n, 255n].map((v) => Buffer.from(longBytes(v)).toString("hex"))).toEqual([
      "ff",
      "80",
      "ff7f",
      "ff00",
      "",
      "ff",
    ]);
  });

  it("a whitelist or an election that does not decode fails the call that reads it", () => {
    expect(() => LockWhitelist.decode(hexToBytes("c0"), new Uint8Array(0), 111)).toThrow(BridgeStorageError);
    expect(() => LockWhitelist.decode(hexToBytes("c28080"), new Uint8Array(0), 111)).toThrow(BridgeStorageError);
    const authorizer = regtestBridge.feePerKbChangeAuthorizer;
    const stranger = `e9d28b${SET_FEE_PER_KB}c58483030d40d594${AUTH_A}`;
    expect(() => AbiCallElection.decode("feePerKbElection", hexToBytes(stranger), authorizer)).toThrow(
      BridgeStorageError,
    );
    expect(() => AbiCallElection.decode("feePerKbElection", hexToBytes("c180"), authorizer)).toThrow(
      BridgeStorageError,
    );
  });
});
