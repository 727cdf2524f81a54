/**
 * A private network's own genesis federation (`bridge.genesisFederationPublicKeys`, docs/config.md):
 * rskj's `genesis_constants.federationPublicKeys`, which replaces regtest's federation keys so that
 * the network's operators hold the federators' private keys. Every node of the network must be
 * given the same keys: the federation address and every Bridge answer derive from them.
 */
import {bytesToHex, hexToBytes, NodeError} from "@xchain/utils";
import {Chainspec} from "../chainspec.ts";
import type {NetworkParams} from "../types.ts";

/** Most keys of a standard multisig federation: the redeem script of 15 keys is the largest P2SH allows. */
export const MAX_FEDERATION_KEYS = 15;

export enum BridgeConfigErrorCode {
  /** A key is not a 33-byte compressed secp256k1 public key in hex. */
  BAD_KEY = "BRIDGE_CONFIG_BAD_KEY",
  /** No key, more than `MAX_FEDERATION_KEYS`, or one key twice. */
  BAD_KEY_COUNT = "BRIDGE_CONFIG_BAD_KEY_COUNT",
  /** The override is only for regtest-ruled networks (regtest, custom). */
  NOT_REGTEST = "BRIDGE_CONFIG_NOT_REGTEST",
}

export type BridgeConfigErrorType =
  | {code: BridgeConfigErrorCode.BAD_KEY; key: string}
  | {code: BridgeConfigErrorCode.BAD_KEY_COUNT; count: number}
  | {code: BridgeConfigErrorCode.NOT_REGTEST; network: string};

/** A refused `bridge.genesisFederationPublicKeys`. */
export class BridgeConfigError extends NodeError<BridgeConfigErrorType> {}

/** Parses one configured key: 66 hex digits (an optional 0x), a compressed key's 02 or 03 prefix. */
function parseKey(text: string): Uint8Array {
  const hex = text.startsWith("0x") ? text.slice(2) : text;
  if (!/^0[23][0-9a-fA-F]{64}$/.test(hex)) {
    throw new BridgeConfigError(
      {code: BridgeConfigErrorCode.BAD_KEY, key: text},
      `bridge.genesisFederationPublicKeys: "${text}" is not a compressed secp256k1 public key (66 hex digits starting 02 or 03)`,
    );
  }
  return hexToBytes(hex);
}

/**
 * `params` with the genesis federation's keys replaced by `keys` (hex strings, in any order: the
 * Bridge sorts them as rskj does). Only regtest and custom networks take an override, as in rskj.
 */
export function withGenesisFederationKeys(params: NetworkParams, keys: readonly string[]): NetworkParams {
  if (params.name !== "regtest" && params.name !== "custom") {
    throw new BridgeConfigError(
      {code: BridgeConfigErrorCode.NOT_REGTEST, network: params.name},
      `bridge.genesisFederationPublicKeys is only for regtest and custom networks, not ${params.name}`,
    );
  }
  const publicKeys = keys.map(parseKey);
  const distinct = new Set(publicKeys.map((key) => bytesToHex(key)));
  if (publicKeys.length === 0 || publicKeys.length > MAX_FEDERATION_KEYS || distinct.size !== publicKeys.length) {
    throw new BridgeConfigError(
      {code: BridgeConfigErrorCode.BAD_KEY_COUNT, count: publicKeys.length},
      `bridge.genesisFederationPublicKeys needs 1 to ${MAX_FEDERATION_KEYS} distinct keys, not ${publicKeys.length}` +
        (distinct.size === publicKeys.length ? "" : " with repeats"),
    );
  }
  const bridge = {...params.bridge, genesisFederation: {...params.bridge.genesisFederation, publicKeys}};
  return {...params, bridge};
}

/** `chainspec` with the genesis federation of `keys` (`withGenesisFederationKeys`), or itself when none are given. */
export function chainspecWithFederationKeys(chainspec: Chainspec, keys: readonly string[]): Chainspec {
  return keys.length === 0 ? chainspec : new Chainspec(withGenesisFederationKeys(chainspec.params, keys));
}
