/** eth_getProof (docs/protocol/proofs.md §1): every proof checked with @ethereumjs/mpt's verifier. */
import {verifyMerkleProof} from "@ethereumjs/mpt";
import {RLP} from "@ethereumjs/rlp";
import {bytesToBigInt, hexToBytes, keccak256, toData, toQuantity} from "@xchain/utils";
import {afterAll, beforeAll, describe, expect, it} from "vitest";
import {alice, buildFixture, dave, type Fixture} from "../../../support/fixture.ts";
import {TestNode} from "../../../support/node.ts";

let node: TestNode;
let fixture: Fixture;
beforeAll(async () => {
  node = await TestNode.start({rpc: {proofs: {maxStorageKeys: 3}}});
  fixture = await buildFixture(node);
});
afterAll(() => node.close());

const EMPTY_CODE_HASH = "0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470";
const EMPTY_STORAGE_HASH = "0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421";
const word = (n: number) => `0x${n.toString(16).padStart(64, "0")}`;

interface ProofResult {
  address: string;
  accountProof: string[];
  balance: string;
  codeHash: string;
  nonce: string;
  storageHash: string;
  storageProof: {key: string; value: string; proof: string[]}[];
}

const bytes = (list: string[]) => list.map((node) => hexToBytes(node));

/** The account as the proof proves it against `stateRoot`, or null when proven absent. */
async function provenAccount(result: ProofResult, stateRoot: Uint8Array): Promise<Uint8Array[] | null> {
  const key = keccak256(hexToBytes(result.address));
  const value = await verifyMerkleProof(key, bytes(result.accountProof), {root: stateRoot, useKeyHashing: false});
  return value === null ? null : (RLP.decode(value) as Uint8Array[]);
}

/** A slot's value as its proof proves it against `storageHash` (0n when proven absent). */
async function provenSlot(entry: ProofResult["storageProof"][number], storageHash: string): Promise<bigint> {
  const key = keccak256(hexToBytes(word(Number(BigInt(entry.key)))));
  const value = await verifyMerkleProof(key, bytes(entry.proof), {root: hexToBytes(storageHash)});
  return value === null ? 0n : bytesToBigInt(RLP.decode(value) as Uint8Array);
}

describe("eth_getProof", () => {
  it("proves a contract and its slots against the block's stateRoot and storageHash", async () => {
    const contract = toData(fixture.contract);
    // A 32-byte key, a short one with leading zeros, a 32-byte one in upper case: each answered as a QUANTITY.
    const keys = [word(0), "0x00ff", `0x${"0".repeat(62)}AB`];
    const result: ProofResult = await node.result("eth_getProof", [contract, keys, "latest"]);
    const header = node.chain.head().header;
    const account = await provenAccount(result, header.stateRoot);
    expect(account).not.toBeNull();
    const [nonce, balance, storageRoot, codeHash] = account as Uint8Array[];
    expect(result.nonce).toBe(toQuantity(bytesToBigInt(nonce as Uint8Array)));
    expect(result.balance).toBe(toQuantity(bytesToBigInt(balance as Uint8Array)));
    expect(result.storageHash).toBe(toData(storageRoot as Uint8Array));
    expect(result.codeHash).toBe(toData(codeHash as Uint8Array));
    expect(result.codeHash).toBe(toData(keccak256(hexToBytes(await node.result("eth_getCode", [contract, "latest"])))));
    // Keys are QUANTITYs whatever their length (the spec's §2.10, where geth echoes a 32-byte key as DATA32).
    expect(result.storageProof.map((entry) => entry.key)).toEqual(["0x0", "0xff", "0xab"]);
    expect(result.storageProof.map((entry) => entry.value)).toEqual(["0x2a", "0x0", "0x0"]);
    for (const entry of result.storageProof) {
      expect(toQuantity(await provenSlot(entry, result.storageHash))).toBe(entry.value);
      expect(entry.proof.length).toBeGreaterThan(0);
    }
  });

  it("proves the state at an older block, named by number, hash or EIP-1898 object", async () => {
    const contract = toData(fixture.contract);
    const [b1] = fixture.blocks;
    for (const ref of ["0x1", toData(b1.hash()), {blockHash: toData(b1.hash())}, {blockNumber: "0x1"}]) {
      const result: ProofResult = await node.result("eth_getProof", [contract, ["0x0"], ref]);
      expect(await provenAccount(result, b1.header.stateRoot)).not.toBeNull();
      // Before block 2 stored 42, the slot is unset: an account without storage proves it with [].
      expect(result.storageHash).toBe(EMPTY_STORAGE_HASH);
      expect(result.storageProof).toEqual([{key: "0x0", value: "0x0", proof: []}]);
    }
  });

  it("proves an absent account absent, with an entry per key", async () => {
    const missing = `0x${"ab".repeat(20)}`;
    const result: ProofResult = await node.result("eth_getProof", [missing, [word(1)], "latest"]);
    expect(await provenAccount(result, node.chain.head().header.stateRoot)).toBeNull();
    expect(result.accountProof.length).toBeGreaterThan(0);
    expect(result).toMatchObject({
      address: missing,
      balance: "0x0",
      nonce: "0x0",
      codeHash: EMPTY_CODE_HASH,
      storageHash: EMPTY_STORAGE_HASH,
      storageProof: [{key: "0x1", value: "0x0", proof: []}],
    });
  });

  it("proves an account without code or storage; quantities without leading zeros", async () => {
    const result: ProofResult = await node.result("eth_getProof", [toData(dave.address), [], "latest"]);
    const account = await provenAccount(result, node.chain.head().header.stateRoot);
    expect(account).not.toBeNull();
    expect(result.balance).toBe(await node.result("eth_getBalance", [toData(dave.address), "latest"]));
    expect(result.balance).toMatch(/^0x[1-9a-f][0-9a-f]*$/);
    expect(result.nonce).toBe("0x0");
    expect(result.codeHash).toBe(EMPTY_CODE_HASH);
    expect(result.storageProof).toEqual([]);
  });

  it("refuses more storage keys than rpc.proofs.maxStorageKeys", async () => {
    const error = await node.error("eth_getProof", [toData(alice.address), ["0x1", "0x2", "0x3", "0x4"], "latest"]);
    expect(error.code).toBe(-32602);
    expect(error.message).toContain("rpc.proofs.maxStorageKeys (3)");
  });

  it("answers bad input -32602 and an unknown block as the other state methods", async () => {
    const account = toData(alice.address);
    expect((await node.error("eth_getProof", [account, ["0xzz"], "latest"])).message).toBe(
      "invalid argument 1 (storageKeys[0]): expected 0x and 1 to 64 hex digits",
    );
    expect((await node.error("eth_getProof", [account, [`0x${"1".repeat(65)}`], "latest"])).code).toBe(-32602);
    expect((await node.error("eth_getProof", [account, "0x1", "latest"])).code).toBe(-32602);
    expect((await node.error("eth_getProof", ["0x12", [], "latest"])).code).toBe(-32602);
    expect((await node.error("eth_getProof", [account, []])).message).toBe(
      "missing value for required argument 2 (block)",
    );
    const unknown = await node.error("eth_getProof", [account, [], "0x99"]);
    expect(unknown).toEqual(await node.error("eth_getBalance", [account, "0x99"]));
    const unknownHash = `0x${"12".repeat(32)}`;
    expect((await node.error("eth_getProof", [account, [], unknownHash])).message).toBe(
      (await node.error("eth_getBalance", [account, unknownHash])).message,
    );
  });
});
