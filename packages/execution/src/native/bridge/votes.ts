/**
 * The Bridge's authorizers (docs/protocol/native-contracts.md §10.2, §10.12): rskj's
 * `AddressBasedAuthorizer` checks the immediate sender, and a vote answers −10
 * (`UNAUTHORIZED_CALLER`) to anyone else. `increaseLockingCap` is whole; the fee per kb and the lock
 * whitelist are in feePerKb.ts and lockWhitelistMethods.ts. The federation-change votes are not
 * implemented (tier C): an authorized sender's call fails, rather than answering a code that claims
 * a vote that was not counted.
 */
import type {BridgeAuthorizer} from "@xchain/chainspec";
import {equalBytes} from "@xchain/utils";
import {NativeContractFailureCode} from "../../errors.ts";
import {abiFunction} from "../dispatch/abi.ts";
import {type BridgeCall, type BridgeMethod, bridgeFailure, price} from "./call.ts";
import {base58check} from "./federation.ts";
import type {BtcAddress} from "./lockWhitelist.ts";

/** rskj's `UNAUTHORIZED_CALLER` of every vote and whitelist response code. */
export const UNAUTHORIZED_CALLER = -10n;

/** Whether the call's immediate sender is one of `authorizer`'s addresses. */
export const isAuthorized = (authorizer: BridgeAuthorizer, call: BridgeCall): boolean =>
  authorizer.addresses.some((address) => equalBytes(address, call.context.sender));

/** bitcoinj's `Address.fromBase58` on the Bridge's network: a P2PKH or P2SH address of its versions, or undefined. */
export function parseBtcAddress(call: BridgeCall, text: string): BtcAddress | undefined {
  let decoded: Uint8Array;
  try {
    decoded = base58check.decode(text);
  } catch {
    return undefined;
  }
  const {p2pkhVersion, p2shVersion} = call.storage.constants.btcParams;
  const version = decoded[0];
  if (decoded.length !== 21 || (version !== p2pkhVersion && version !== p2shVersion)) return undefined;
  return {version, hash160: decoded.subarray(1)};
}

/** A federation-change vote: −10 to anyone but its authorizers, and a failure for them (tier C). */
function federationVote(name: string, inputs: string[], gas: number): BridgeMethod {
  return {
    fn: abiFunction(name, inputs, ["int256"]),
    gas: price(gas),
    acceptsStaticCall: false,
    run: (_args, call) => {
      if (!isAuthorized(call.storage.constants.federationChangeAuthorizer, call)) return UNAUTHORIZED_CALLER;
      throw bridgeFailure(
        name,
        "an authorized federation change is not implemented by xchain",
        NativeContractFailureCode.CALLER_REFUSED,
      );
    },
  };
}

/** rskj's `LockingCapSupportImpl.increaseLockingCap`: true when the cap moved to the new value. */
async function increaseLockingCap([value]: unknown[], call: BridgeCall): Promise<boolean> {
  const requested = value as bigint;
  // rskj reads the argument as a Coin (`longValueExact`) and refuses a value that is not positive.
  if (requested <= 0n || requested > 2n ** 63n - 1n) {
    throw bridgeFailure("increaseLockingCap", `locking cap ${requested} must be a positive 64-bit amount`);
  }
  const {constants} = call.storage;
  if (!isAuthorized(constants.increaseLockingCapAuthorizer, call)) return false;
  const current = (await call.storage.lockingCap()).value;
  // rskj stores the cap it read (the initial one when none was stored) whatever the answer.
  call.storage.setLockingCap(current);
  if (requested < current || requested > current * constants.lockingCapIncrementsMultiplier) return false;
  call.storage.setLockingCap(requested);
  return true;
}

export const voteMethods: readonly BridgeMethod[] = [
  federationVote("createFederation", [], 11_000),
  federationVote("addFederatorPublicKeyMultikey", ["bytes", "bytes", "bytes"], 13_000),
  federationVote("commitFederation", ["bytes"], 38_000),
  federationVote("rollbackFederation", [], 12_000),
  {
    fn: abiFunction("increaseLockingCap", ["int256"], ["bool"]),
    gas: price(8_000),
    acceptsStaticCall: false,
    run: increaseLockingCap,
  },
];
