/**
 * Every Bridge method xchain runs (docs/protocol/native-contracts.md §10.2), by selector: tier A's
 * getters, votes and `releaseBtc`; the light client and peg-ins (tier B, btc/methods.ts); the
 * federators' own methods, priced and guarded (federatorMethods.ts). A method missing from the table
 * (rskj's disabled ones on regtest, the union bridge, Flyover, registerBtcCoinbaseTransaction)
 * is unparseable input, as a disabled method is in rskj.
 */
import {bytesToHex} from "@xchain/utils";
import {lightClientMethods} from "./btc/methods.ts";
import type {BridgeMethod} from "./call.ts";
import {federationGetters} from "./federationGetters.ts";
import {federatorMethods} from "./federatorMethods.ts";
import {voteFeePerKbChangeMethod} from "./feePerKb.ts";
import {lockWhitelistMethods} from "./lockWhitelistMethods.ts";
import {releaseBtcMethod} from "./releaseBtc.ts";
import {stateGetters} from "./stateGetters.ts";
import {voteMethods} from "./votes.ts";

export const BRIDGE_METHODS: readonly BridgeMethod[] = [
  ...federationGetters,
  ...stateGetters,
  ...voteMethods,
  voteFeePerKbChangeMethod,
  ...lockWhitelistMethods,
  releaseBtcMethod,
  ...lightClientMethods,
  ...federatorMethods,
];

/** The method of a 4-byte selector (hex), if the table has one. */
export const BRIDGE_METHODS_BY_SELECTOR: ReadonlyMap<string, BridgeMethod> = new Map(
  BRIDGE_METHODS.map((method) => [bytesToHex(method.fn.selector), method]),
);
