/**
 * The light client's stored blocks (docs/protocol/native-contracts.md §10.4, bitcoinj's `StoredBlock`
 * in its RSKIP-454 "V2" form): 32-byte chain work big-endian ‖ 4-byte height big-endian ‖ 80-byte
 * header = 116 bytes; before RSKIP-454 the chain work had 12 bytes (96 in all), which is still read.
 */
import type {BtcNetworkParams} from "@xchain/chainspec";
import {decodeCompactBits, workOfTarget} from "@xchain/merged-mining";
import {bigIntToFixedBytes, bytesToBigInt, bytesToHex, concatBytes, reverseBytes, sha256d} from "@xchain/utils";
import {BridgeStorageError, BridgeStorageErrorCode} from "./errors.ts";

export interface StoredBlock {
  /** The 80-byte header. */
  header: Uint8Array;
  /** Total work of the chain up to and including this block. */
  chainWork: bigint;
  height: number;
}

const HEADER_BYTES = 80;
const V2_BYTES = 32 + 4 + HEADER_BYTES;
const LEGACY_BYTES = 12 + 4 + HEADER_BYTES;

/** The header's hash in display (RPC) byte order, as the Bridge keys and answers it. */
export const blockHashOf = (header: Uint8Array): Uint8Array => reverseBytes(sha256d(header));

/** The V2 form rskj writes from RSKIP-454 on (always, on regtest). */
export function encodeStoredBlock(block: StoredBlock): Uint8Array {
  const height = new Uint8Array(4);
  new DataView(height.buffer).setUint32(0, block.height);
  return concatBytes(bigIntToFixedBytes(block.chainWork, 32), height, block.header);
}

/** Either form, by its length. */
export function decodeStoredBlock(name: string, value: Uint8Array): StoredBlock {
  const workBytes = value.length === V2_BYTES ? 32 : value.length === LEGACY_BYTES ? 12 : -1;
  if (workBytes < 0) {
    throw new BridgeStorageError(
      {code: BridgeStorageErrorCode.UNDECODABLE, key: name, value: bytesToHex(value)},
      `the Bridge's stored block ${name} has ${value.length} bytes, not ${V2_BYTES} or ${LEGACY_BYTES}`,
    );
  }
  return {
    chainWork: bytesToBigInt(value.subarray(0, workBytes)),
    height: new DataView(value.buffer, value.byteOffset + workBytes, 4).getUint32(0),
    header: value.slice(workBytes + 4),
  };
}

/** A header's work: 2²⁵⁶ / (target + 1) (bitcoinj's `Block.getWork`). */
export function workOf(header: Uint8Array): bigint {
  return workOfTarget(decodeCompactBits(new DataView(header.buffer, header.byteOffset + 72, 4).getUint32(0, true)));
}

/** The light client's first block: the network's Bitcoin genesis at height 0 (regtest has no checkpoints). */
export function genesisStoredBlock(btc: BtcNetworkParams): StoredBlock {
  return {header: btc.genesisHeader, chainWork: workOf(btc.genesisHeader), height: 0};
}
