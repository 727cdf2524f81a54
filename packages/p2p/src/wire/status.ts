/**
 * The status message of `/xchain/<networkId>/status/1`:
 * `[protocolVersion, networkId, genesisHash, bestHash, bestNumber, totalDifficulty]`.
 */
import {encodeRlp} from "@xchain/primitives";
import type {PeerStatus} from "../types.ts";
import {decodeList, encodeUint, hash, safeInteger, tuple, uint} from "./codec.ts";

const STATUS_FIELDS = 6;

export function encodeStatus(status: PeerStatus): Uint8Array {
  return encodeRlp([
    encodeUint(status.protocolVersion),
    encodeUint(status.networkId),
    status.genesisHash,
    status.bestHash,
    encodeUint(status.bestNumber),
    encodeUint(status.totalDifficulty),
  ]);
}

/** Decodes a status message; throws `P2PError` INVALID_MESSAGE. */
export function decodeStatus(bytes: Uint8Array): PeerStatus {
  const items = tuple(decodeList(bytes, "status"), STATUS_FIELDS, "status");
  return {
    protocolVersion: Number(uint(items[0], "status.protocolVersion", 32)),
    networkId: Number(uint(items[1], "status.networkId", 32)),
    genesisHash: hash(items[2], "status.genesisHash"),
    bestHash: hash(items[3], "status.bestHash"),
    bestNumber: safeInteger(items[4], "status.bestNumber"),
    totalDifficulty: uint(items[5], "status.totalDifficulty", 256),
  };
}
