/**
 * The genesis federation as the Bridge answers it (docs/protocol/native-contracts.md §10.3): rskj's
 * `FederationSupportImpl.getGenesisFederation` for a standard multisig federation (rskj 9.0.3's
 * regtest, testnet and mainnet genesis). Members are sorted by their compressed BTC key as unsigned
 * bytes; the threshold is ⌊n/2⌋+1; the redeem script is `OP_m <keys> OP_n OP_CHECKMULTISIG`; the
 * address is that script's P2SH on the Bridge's Bitcoin network.
 */

import {createBase58check} from "@scure/base";
import type {BridgeConstants} from "@xchain/chainspec";
import {compareBytes, concatBytes, hash160, keccak256, publicKeyForms, sha256} from "@xchain/utils";

/** Bitcoin's base58check (double SHA-256 checksum). */
export const base58check = createBase58check(sha256);

const OP_CHECKMULTISIG = 0xae;
/** OP_1…OP_16. */
const smallNumber = (n: number): number => 0x50 + n;

export interface FederationMember {
  /** The compressed key, which is the member's BTC, RSK and MST key alike. */
  btcPublicKey: Uint8Array;
  /** The RSK address of that key (keccak-256 of the uncompressed key, last 20 bytes). */
  rskAddress: Uint8Array;
}

export interface Federation {
  members: FederationMember[];
  /** Signatures a release needs: ⌊n/2⌋+1. */
  threshold: number;
  redeemScript: Uint8Array;
  /** The P2SH address's HASH160 and its base58check string. */
  addressHash160: Uint8Array;
  address: string;
  creationTimeMs: bigint;
  creationBlockNumber: bigint;
}

/** Base58check of a version byte and a HASH160: a P2PKH or P2SH address. */
export const base58Address = (version: number, hash: Uint8Array): string =>
  base58check.encode(concatBytes(Uint8Array.of(version), hash));

/** The standard multisig redeem script of `threshold` out of the (sorted) `keys`. */
export function multisigRedeemScript(threshold: number, keys: readonly Uint8Array[]): Uint8Array {
  const pushes = keys.map((key) => concatBytes(Uint8Array.of(key.length), key));
  return concatBytes(
    Uint8Array.of(smallNumber(threshold)),
    ...pushes,
    Uint8Array.of(smallNumber(keys.length), OP_CHECKMULTISIG),
  );
}

/** The genesis federation of `constants` (its keys are the configured ones). */
export function genesisFederation(constants: BridgeConstants): Federation {
  const {publicKeys, creationTimeMs, creationBlockNumber} = constants.genesisFederation;
  const sorted = [...publicKeys].sort(compareBytes);
  const members = sorted.map((btcPublicKey) => ({
    btcPublicKey,
    rskAddress: keccak256(publicKeyForms(btcPublicKey).uncompressed).slice(12),
  }));
  const threshold = Math.floor(members.length / 2) + 1;
  const redeemScript = multisigRedeemScript(threshold, sorted);
  const addressHash160 = hash160(redeemScript);
  return {
    members,
    threshold,
    redeemScript,
    addressHash160,
    address: base58Address(constants.btcParams.p2shVersion, addressHash160),
    creationTimeMs,
    creationBlockNumber,
  };
}

// The genesis federation of each constants object, derived once (it decompresses every key).
const federations = new WeakMap<BridgeConstants, Federation>();

/** `genesisFederation(constants)`, computed once per constants object (the Bridge's and REMASC's). */
export function genesisFederationOf(constants: BridgeConstants): Federation {
  let federation = federations.get(constants);
  if (!federation) {
    federation = genesisFederation(constants);
    federations.set(constants, federation);
  }
  return federation;
}
