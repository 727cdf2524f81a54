/** Real headers from the shared vectors, decoded, and helpers to build and check proof inputs. */
import {BlockHeader, type HeaderEncodingRules, RSKIP92_FROM_GENESIS} from "@xchain/primitives";
import {readJsonVector, readMainnetHeaderLines} from "@xchain/test-utils";
import {concatBytes, hexToBytes} from "@xchain/utils";
import {expect} from "vitest";
import {
  type MergedMiningErrorCode,
  type MergedMiningProofInput,
  type MergedMiningRules,
  SHA256_INITIAL_STATE,
  sealedHashForMergedMining,
} from "../src/index.ts";

export const mainnetRules: HeaderEncodingRules = {isRskip92Active: (n) => n >= 729_000};
export const testnetRules = RSKIP92_FROM_GENESIS;

/** Mainnet activation heights of the rules merged mining depends on. */
export function mainnetMergedMiningRules(blockNumber: number): MergedMiningRules {
  return {
    rskip92Active: blockNumber >= 729_000,
    rskip180Active: blockNumber >= 3_614_800,
    forkDetectionActive: blockNumber >= 1_591_000,
  };
}

/** Testnet: RSKIP-92 and RSKIP-110 from genesis, RSKIP-180 from 2,060,500. */
export function testnetMergedMiningRules(blockNumber: number): MergedMiningRules {
  return {rskip92Active: true, rskip180Active: blockNumber >= 2_060_500, forkDetectionActive: true};
}

export interface SampleBlock {
  number: number;
  headerRlp: string;
  hashForMergedMining: string;
  difficulty: string;
  bitcoinHeader: string;
  bitcoinBlockHash_display: string;
  merkleProof: string;
  coinbaseCompressed: string;
  coinbaseTxid_display: string;
  midstateByteCount: number;
  rskTagPositionInTail: number;
  bytesAfterMergedMiningHash: number;
}

export interface TestnetBlock {
  number: number;
  headerRlpFull: string;
  computedHashForMergedMining: string;
  coinbaseTxid_display?: string;
}

export const samples: SampleBlock[] = readJsonVector<{blocks: SampleBlock[]}>("mainnet-headers-samples.json").blocks;
export const testnetBlocks: TestnetBlock[] = readJsonVector<{blocks: TestnetBlock[]}>(
  "testnet-blocks-from-rpc-json.json",
).blocks;

let mainnetHeaders: BlockHeader[] | undefined;
/** The 1,060 consecutive mainnet headers, decoded once. */
export function loadMainnetHeaders(): BlockHeader[] {
  mainnetHeaders ??= readMainnetHeaderLines().map((l) => BlockHeader.decode(hexToBytes(l), mainnetRules));
  return mainnetHeaders;
}

/** The proof input of a real mainnet header, with its sealed hashForMergedMining. */
export function mainnetInput(header: BlockHeader): MergedMiningProofInput {
  const rules = mainnetMergedMiningRules(header.number);
  return {
    ...header.mergedMining!,
    hashForMergedMining: sealedHashForMergedMining(header, rules.forkDetectionActive),
    difficulty: header.difficulty,
    rskip92Active: rules.rskip92Active,
    rskip180Active: rules.rskip180Active,
  };
}

/** A compressed coinbase with the given byte count and tail, and the SHA-256 initial state as midstate. */
export function craftCompressed(tail: Uint8Array, byteCount = 0n): Uint8Array {
  const head = new Uint8Array(40);
  const view = new DataView(head.buffer);
  view.setBigInt64(0, byteCount);
  SHA256_INITIAL_STATE.forEach((word, i) => {
    view.setUint32(8 + 4 * i, word);
  });
  return concatBytes(head, tail);
}

/** A copy of `bytes` with the byte at `index` XOR-ed with `mask`. */
export function flipByte(bytes: Uint8Array, index: number, mask = 0x01): Uint8Array {
  const out = bytes.slice();
  out[index] = (out[index] as number) ^ mask;
  return out;
}

/** Runs `fn` and asserts it throws an error with `code`. */
export function expectCode(fn: () => unknown, code: MergedMiningErrorCode | string): void {
  let thrown: unknown;
  try {
    fn();
  } catch (e) {
    thrown = e;
  }
  expect(thrown, `expected ${code}`).toBeDefined();
  expect((thrown as {code?: string}).code).toBe(code);
}
