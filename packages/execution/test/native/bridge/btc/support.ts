/**
 * Bitcoin for the light client's and peg-ins' tests: a Bridge storage in memory, regtest headers
 * mined with real proof of work (about half the nonces meet 0x207fffff), and peg-in transactions.
 */
import {type BridgeConstants, regtestBridge} from "@xchain/chainspec";
import {
  type BitcoinTxOutput,
  decodeCompactBits,
  grindNonce,
  OP_RETURN,
  p2shOutputScript,
  REGTEST_MAX_TARGET_BITS,
  serializeBitcoinTransaction,
} from "@xchain/merged-mining";
import {bytesStorage} from "@xchain/state";
import {MemoryWords} from "@xchain/test-utils";
import {concatBytes, hexToBytes, reverseBytes, sha256d} from "@xchain/utils";
import {genesisFederation} from "../../../../src/native/bridge/federation.ts";
import {BridgeStorage} from "../../../../src/native/bridge/storage.ts";

/** The regtest genesis header as the spec gives it (docs/protocol/native-contracts.md §10.5). */
export const REGTEST_GENESIS =
  "0100000000000000000000000000000000000000000000000000000000000000000000003ba3edfd7a7b12b27ac72c3e67768f617fc81bc3888a51323a9fb8aa4b1e5e4adae5494dffff7f2002000000";
export const REGTEST_GENESIS_HASH = "0f9188f13cb7b2c71f2a335e3a4fc328bf5beb436012afca590b1a11466e2206";

/** A Bridge storage over words in memory. */
export function memoryBridgeStorage(constants: BridgeConstants = regtestBridge): {storage: BridgeStorage} {
  return {storage: new BridgeStorage(bytesStorage(new MemoryWords()), constants)};
}

/** A display-order hash of a header. */
export const hashOf = (header80: Uint8Array): Uint8Array => reverseBytes(sha256d(header80));

export interface MineOptions {
  merkleRoot?: Uint8Array;
  time?: number;
  bits?: number;
  /** Start nonce; different values give different headers on the same parent. */
  nonce?: number;
}

/** Mines a header on `parent` (80 bytes) meeting its own nBits: real proof of work. */
export function mineHeader(parent: Uint8Array, options: MineOptions = {}): Uint8Array {
  const bits = options.bits ?? REGTEST_MAX_TARGET_BITS;
  const header = grindNonce(
    {
      version: 0x20000000,
      prevBlockHash: sha256d(parent),
      merkleRoot: options.merkleRoot ?? sha256d(Uint8Array.of(options.nonce ?? 0)),
      time: options.time ?? new DataView(parent.buffer, parent.byteOffset + 68, 4).getUint32(0, true) + 600,
      bits,
      nonce: options.nonce ?? 0,
    },
    decodeCompactBits(bits),
  );
  if (header === undefined) throw new Error("no nonce found");
  return header;
}

/** `count` headers mined one on another from `parent`; each gets a distinct merkle root from `seed`. */
export function mineChain(parent: Uint8Array, count: number, seed = 0): Uint8Array[] {
  const chain: Uint8Array[] = [];
  let tip = parent;
  for (let i = 0; i < count; i++) {
    tip = mineHeader(tip, {merkleRoot: sha256d(Uint8Array.of(seed, i >> 8, i & 0xff))});
    chain.push(tip);
  }
  return chain;
}

/** The regtest federation's P2SH output script. */
export const federationScript = (constants: BridgeConstants = regtestBridge): Uint8Array =>
  p2shOutputScript(genesisFederation(constants).addressHash160);

const push = (data: Uint8Array): Uint8Array => concatBytes(Uint8Array.of(data.length), data);

/**
 * A P2PKH spend's scriptSig: `<signature> <public key>`. The Bridge trusts Bitcoin's validation (it is an SPV
 * client) and never checks the signature, so any DER-shaped bytes serve.
 */
export const p2pkhScriptSig = (publicKey: Uint8Array): Uint8Array =>
  concatBytes(push(new Uint8Array(71).fill(0x30)), push(publicKey));

/** The OP_RETURN output of a protocol-1 peg-in: `RSKT ‖ 01 ‖ rsk address [‖ type ‖ hash160]`. */
export function opReturnOutput(rskAddress: Uint8Array, refund?: {type: 1 | 2; hash: Uint8Array}): BitcoinTxOutput {
  const payload = concatBytes(
    hexToBytes("52534b5401"),
    rskAddress,
    refund === undefined ? new Uint8Array(0) : concatBytes(Uint8Array.of(refund.type), refund.hash),
  );
  return {value: 0n, script: concatBytes(Uint8Array.of(OP_RETURN), push(payload))};
}

/** A legacy transaction with one input (spending `prevTxid`:0 with `scriptSig`) and the given outputs. */
export function pegInTransaction(
  scriptSig: Uint8Array,
  outputs: BitcoinTxOutput[],
  prevTxid = sha256d(Uint8Array.of(7)),
): Uint8Array {
  return serializeBitcoinTransaction({
    version: 1,
    inputs: [{prevTxid, prevIndex: 0, script: scriptSig, sequence: 0xffffffff, witness: []}],
    outputs,
    lockTime: 0,
  });
}
