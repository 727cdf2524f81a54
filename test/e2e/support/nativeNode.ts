// What the native-contract e2e tests share (test/e2e/native): a regtest node with its provider and
// the funded `cow` account, the Bridge's ABI from @rsksmart/rsk-precompiled-abis, and the Bitcoin
// regtest values they build arguments from (docs/protocol/native-contracts.md §10).
import abis from "@rsksmart/rsk-precompiled-abis";
import {readJsonVector} from "@xchain/test-utils";
import {concatBytes, hash160, hexToBytes, sha256d} from "@xchain/utils";
import {encodeBase58, Interface, id, JsonRpcProvider, type SigningKey, Wallet} from "ethers";
import {afterAll, beforeAll} from "vitest";
import {type RunningNode, startNode} from "./xchainProcess.ts";

/** The Bridge's address and ABI as the npm package ships them. */
export const BRIDGE = abis.bridge.address;
export const BRIDGE_ABI = abis.bridge.abi;
export const bridgeInterface = new Interface(BRIDGE_ABI);

/** Bitcoin regtest's genesis header (80 bytes) and its hash in display order. */
export const BTC_REGTEST_GENESIS_HEADER =
  "0x0100000000000000000000000000000000000000000000000000000000000000000000003ba3edfd7a7b12b27ac72c3e67768f617fc81bc3888a51323a9fb8aa4b1e5e4adae5494dffff7f2002000000";
export const BTC_REGTEST_GENESIS_HASH = "0x0f9188f13cb7b2c71f2a335e3a4fc328bf5beb436012afca590b1a11466e2206";

/** A key's regtest P2PKH address: base58check of version 111 and the HASH160 of its compressed public key. */
export function btcAddress(key: SigningKey): string {
  const payload = Uint8Array.of(111, ...hash160(hexToBytes(key.compressedPublicKey.slice(2))));
  return encodeBase58(concatBytes(payload, sha256d(payload).subarray(0, 4)));
}

/** rskj's HDWalletUtils unit-test vectors (test/vectors/native-contracts-hdwallet.json, §5): inputs and answers. */
export interface HdWalletVectors {
  toBase58Check: {hash: string; version: number; result: string}[];
  deriveExtendedPublicKey: {xpub: string; path: string; result: string}[];
  extractPublicKeyFromExtendedPublicKey: {xpub: string; result: string}[];
  getMultisigScriptHash: {minimumSignatures: number; keys: string[]; result: string}[];
}
export const hdWalletVectors = (): HdWalletVectors => readJsonVector<HdWalletVectors>("native-contracts-hdwallet.json");

/** The ASCII of a plain storage key, left-padded to a word (docs/protocol/native-contracts.md §10.4, §11.2). */
export const plainKey = (name: string): string => `0x${Buffer.from(name).toString("hex").padStart(64, "0")}`;

/** The node a test file runs against, filled in by `useRegtestNode`'s beforeAll. */
export interface RegtestSession {
  node: RunningNode;
  provider: JsonRpcProvider;
  /** The funded dev account of keccak256("cow"). */
  cow: Wallet;
}

/**
 * Starts a regtest node (p2p off, free ports) before the file's tests and stops it after them. The
 * returned object's fields are set once the beforeAll has run.
 */
export function useRegtestNode(args: string[] = []): RegtestSession {
  const session = {} as RegtestSession;
  beforeAll(async () => {
    session.node = await startNode(["--p2p.enabled", "false", ...args]);
    session.provider = new JsonRpcProvider(session.node.httpUrl, undefined, {pollingInterval: 50, cacheTimeout: -1});
    session.cow = new Wallet(id("cow"), session.provider);
  });
  afterAll(async () => {
    session.provider?.destroy();
    await session.node?.stop();
  });
  return session;
}
