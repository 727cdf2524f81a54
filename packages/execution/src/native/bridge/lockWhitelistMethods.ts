/**
 * The lock whitelist's methods (docs/protocol/native-contracts.md §10.12): rskj's `Bridge` wrappers
 * and `WhitelistSupportImpl`. The lock-whitelist authorizer adds one-off and unlimited entries,
 * removes them and sets the disable delay; the local-only getters read the list in hash160 order.
 * rskj emits no event for any of them.
 */
import {type AbiValue, abiFunction} from "../dispatch/abi.ts";
import {type BridgeCall, type BridgeMethod, bridgeFailure, price} from "./call.ts";
import {base58Address} from "./federation.ts";
import type {BtcAddress, LockWhitelistEntry} from "./lockWhitelist.ts";
import {isAuthorized, parseBtcAddress, UNAUTHORIZED_CALLER} from "./votes.ts";

/** rskj's `WhitelistResponseCode`. */
export const WhitelistResponse = {
  SUCCESS: 1n,
  UNLIMITED_MODE: 0n,
  ADDRESS_ALREADY_WHITELISTED: -1n,
  ADDRESS_NOT_EXIST: -1n,
  DELAY_ALREADY_SET: -1n,
  INVALID_ADDRESS_FORMAT: -2n,
  DISABLE_BLOCK_DELAY_INVALID: -2n,
} as const;

const authorized = (call: BridgeCall): boolean =>
  isAuthorized(call.storage.constants.lockWhitelistChangeAuthorizer, call);

/** `addLockWhitelistAddress` once the entry is parsed: the authorizer, then a new hash160. */
async function addEntry(call: BridgeCall, entry: LockWhitelistEntry): Promise<bigint> {
  if (!authorized(call)) return UNAUTHORIZED_CALLER;
  const whitelist = await call.storage.lockWhitelist();
  return whitelist.put(entry) ? WhitelistResponse.SUCCESS : WhitelistResponse.ADDRESS_ALREADY_WHITELISTED;
}

/** The address is parsed before the authorizer is asked, so a bad one answers −2 to anyone. */
function addOneOff([text, maxValue]: AbiValue[], call: BridgeCall): Promise<bigint> | bigint {
  const address = parseBtcAddress(call, text as string);
  if (!address) return WhitelistResponse.INVALID_ADDRESS_FORMAT;
  const maxTransferValue = maxValue as bigint;
  // `longValueExact`: a value past a long fails the call.
  if (BigInt.asIntN(64, maxTransferValue) !== maxTransferValue) {
    throw bridgeFailure("addOneOffLockWhitelistAddress", `max value ${maxTransferValue} does not fit a long`);
  }
  return addEntry(call, {address, maxTransferValue});
}

function addUnlimited([text]: AbiValue[], call: BridgeCall): Promise<bigint> | bigint {
  const address = parseBtcAddress(call, text as string);
  if (!address) return WhitelistResponse.INVALID_ADDRESS_FORMAT;
  return addEntry(call, {address, maxTransferValue: undefined});
}

/** The authorizer first; the whitelist is read (and so saved) before the address is parsed. */
async function remove([text]: AbiValue[], call: BridgeCall): Promise<bigint> {
  if (!authorized(call)) return UNAUTHORIZED_CALLER;
  const whitelist = await call.storage.lockWhitelist();
  const address = parseBtcAddress(call, text as string);
  if (!address) return WhitelistResponse.INVALID_ADDRESS_FORMAT;
  return whitelist.remove(address) ? WhitelistResponse.SUCCESS : WhitelistResponse.ADDRESS_NOT_EXIST;
}

/**
 * The Bridge reads the light client's best height first (opening its block store), then the
 * authorizer; the whitelist is disabled above best height + delay, a delay set only once. The sum is
 * Java's int arithmetic, so a delay that overflows it is refused like one that is not positive.
 */
async function setDisableBlockDelay([value]: AbiValue[], call: BridgeCall): Promise<bigint> {
  await call.storage.ensureBtcBlockStore();
  const bestHeight = (await call.storage.chainHead()).height;
  if (!authorized(call)) return UNAUTHORIZED_CALLER;
  const whitelist = await call.storage.lockWhitelist();
  if (whitelist.isDisableBlockSet) return WhitelistResponse.DELAY_ALREADY_SET;
  const delay = value as bigint;
  if (BigInt.asIntN(32, delay) !== delay) {
    throw bridgeFailure("setLockWhitelistDisableBlockDelay", `delay ${delay} does not fit an int`);
  }
  const disableHeight = (Number(delay) + bestHeight) | 0;
  if (disableHeight <= bestHeight) return WhitelistResponse.DISABLE_BLOCK_DELAY_INVALID;
  whitelist.disableBlockHeight = disableHeight;
  return WhitelistResponse.SUCCESS;
}

const base58 = (address: BtcAddress): string => base58Address(address.version, address.hash160);

function vote(
  name: string,
  inputs: string[],
  gas: number,
  run: (args: AbiValue[], call: BridgeCall) => Promise<bigint> | bigint,
): BridgeMethod {
  return {fn: abiFunction(name, inputs, ["int256"]), gas: price(gas), acceptsStaticCall: false, run};
}

function getter(name: string, inputs: string[], output: string, run: BridgeMethod["run"]): BridgeMethod {
  return {fn: abiFunction(name, inputs, [output]), gas: price(16_000), localOnly: true, acceptsStaticCall: true, run};
}

export const lockWhitelistMethods: readonly BridgeMethod[] = [
  vote("addOneOffLockWhitelistAddress", ["string", "int256"], 25_000, addOneOff),
  vote("addUnlimitedLockWhitelistAddress", ["string"], 25_000, addUnlimited),
  vote("removeLockWhitelistAddress", ["string"], 24_000, remove),
  vote("setLockWhitelistDisableBlockDelay", ["int256"], 24_000, setDisableBlockDelay),
  getter("getLockWhitelistSize", [], "int256", async (_a, call) => BigInt((await call.storage.lockWhitelist()).size)),
  // The index is read as a Java int (`BigInteger.intValue`, the low 32 bits); out of range is "".
  getter("getLockWhitelistAddress", ["int256"], "string", async ([index], call) => {
    const entry = (await call.storage.lockWhitelist()).at(Number(BigInt.asIntN(32, index as bigint)));
    return entry ? base58(entry.address) : "";
  }),
  // A one-off entry's maximum, 0 (UNLIMITED_MODE) for an unlimited one, −1 for none or a bad address.
  getter("getLockWhitelistEntryByAddress", ["string"], "int256", async ([text], call) => {
    const address = parseBtcAddress(call, text as string);
    const entry = address && (await call.storage.lockWhitelist()).get(address);
    if (!entry) return WhitelistResponse.ADDRESS_NOT_EXIST;
    return entry.maxTransferValue ?? WhitelistResponse.UNLIMITED_MODE;
  }),
];
