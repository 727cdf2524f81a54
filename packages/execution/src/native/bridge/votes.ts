/**
 * The Bridge's vote and whitelist methods (docs/protocol/native-contracts.md §10.1, §10.2): each
 * answers rskj's code −10 (`UNAUTHORIZED_CALLER`) to a sender that is not one of its authorizers'
 * addresses, as rskj's `AddressBasedAuthorizer` checks the immediate sender. `increaseLockingCap` is
 * whole. What an authorized vote would change (a federation change, the lock whitelist, the fee per
 * kb election) is not implemented: an authorized sender's call fails, rather than answering a code
 * that claims a vote that was not counted.
 */
import type {BridgeAuthorizer} from "@xchain/chainspec";
import {equalBytes} from "@xchain/utils";
import {NativeContractFailureCode} from "../../errors.ts";
import {abiFunction} from "../dispatch/abi.ts";
import {type BridgeCall, type BridgeMethod, bridgeFailure, price} from "./call.ts";
import {base58check} from "./federation.ts";

/** rskj's `UNAUTHORIZED_CALLER` of every vote and whitelist response code. */
export const UNAUTHORIZED_CALLER = -10n;

/** Whether the call's immediate sender is one of `authorizer`'s addresses. */
export const isAuthorized = (authorizer: BridgeAuthorizer, call: BridgeCall): boolean =>
  authorizer.addresses.some((address) => equalBytes(address, call.context.sender));

type AuthorizerOf = (call: BridgeCall) => BridgeAuthorizer;

const federationChange: AuthorizerOf = (call) => call.storage.constants.federationChangeAuthorizer;
const lockWhitelist: AuthorizerOf = (call) => call.storage.constants.lockWhitelistChangeAuthorizer;
const feePerKb: AuthorizerOf = (call) => call.storage.constants.feePerKbChangeAuthorizer;

/** rskj's `INVALID_ADDRESS_FORMAT` of the whitelist methods. */
export const INVALID_ADDRESS_FORMAT = -2n;

/** bitcoinj's `Address.fromBase58` on the Bridge's network: a P2PKH or P2SH address of its versions. */
function isBtcAddress(call: BridgeCall, text: string): boolean {
  let decoded: Uint8Array;
  try {
    decoded = base58check.decode(text);
  } catch {
    return false;
  }
  const {p2pkhVersion, p2shVersion} = call.storage.constants.btcParams;
  return decoded.length === 21 && (decoded[0] === p2pkhVersion || decoded[0] === p2shVersion);
}

/**
 * What a method checks before its authorizer, in rskj's order: an answer that ends the call, or
 * undefined to go on.
 */
type Precheck = (args: unknown[], call: BridgeCall) => Promise<bigint | undefined> | bigint | undefined;

/** The whitelist additions parse the address first (−2), then a one-off entry's amount as a long. */
const whitelistEntry: Precheck = ([address, maxValue], call) => {
  if (!isBtcAddress(call, address as string)) return INVALID_ADDRESS_FORMAT;
  if (maxValue !== undefined && BigInt.asIntN(64, maxValue as bigint) !== maxValue) {
    throw bridgeFailure("addOneOffLockWhitelistAddress", `max value ${maxValue} does not fit a long`);
  }
  return undefined;
};

/** rskj reads the light client's height first, which opens (and so initialises) its block store. */
const openBlockStore: Precheck = async (_args, call) => {
  await call.storage.ensureBtcBlockStore();
  return undefined;
};

function vote(
  name: string,
  inputs: string[],
  gas: number,
  authorizerOf: AuthorizerOf,
  precheck?: Precheck,
): BridgeMethod {
  return {
    fn: abiFunction(name, inputs, ["int256"]),
    gas: price(gas),
    acceptsStaticCall: false,
    run: async (args, call) => {
      const early = await precheck?.(args, call);
      if (early !== undefined) return early;
      if (!isAuthorized(authorizerOf(call), call)) return UNAUTHORIZED_CALLER;
      throw bridgeFailure(
        name,
        "an authorized vote is not implemented by xchain",
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
  vote("createFederation", [], 11_000, federationChange),
  vote("addFederatorPublicKeyMultikey", ["bytes", "bytes", "bytes"], 13_000, federationChange),
  vote("commitFederation", ["bytes"], 38_000, federationChange),
  vote("rollbackFederation", [], 12_000, federationChange),
  vote("addOneOffLockWhitelistAddress", ["string", "int256"], 25_000, lockWhitelist, whitelistEntry),
  vote("addUnlimitedLockWhitelistAddress", ["string"], 25_000, lockWhitelist, whitelistEntry),
  vote("removeLockWhitelistAddress", ["string"], 24_000, lockWhitelist),
  vote("setLockWhitelistDisableBlockDelay", ["int256"], 24_000, lockWhitelist, openBlockStore),
  vote("voteFeePerKbChange", ["int256"], 10_000, feePerKb),
  {
    fn: abiFunction("increaseLockingCap", ["int256"], ["bool"]),
    gas: price(8_000),
    acceptsStaticCall: false,
    run: increaseLockingCap,
  },
];
