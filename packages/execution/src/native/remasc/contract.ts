/**
 * REMASC at 0x…01000008 as a native contract (rskj's `RemascContract`; docs/protocol/native-contracts.md
 * §11.6): what a message to REMASC runs. Its price is always 0. Empty input is `processMinersFees`;
 * otherwise the input must be exactly a 4-byte selector, `processMinersFees()` or
 * `getStateForDebugging()`, and anything else fails. `processMinersFees` fails for every message: in
 * rskj it runs only for the block's REMASC transaction, which xchain applies directly
 * (transaction.ts) and never sends through the EVM. `getStateForDebugging` answers anyone with
 * `RemascStorage.encodeStateForDebugging()` ABI-encoded as `bytes`, then saves REMASC's storage as every
 * successful run of rskj's does.
 */
import {Address} from "@ethereumjs/util";
import {REMASC_ADDRESS} from "@xchain/primitives";
import {equalBytes} from "@xchain/utils";
import {NativeContractFailureCode} from "../../errors.ts";
import {abiFunction, encodeOutputs} from "../dispatch/abi.ts";
import {refuse} from "../dispatch/nativeMethods.ts";
import type {NativeContract} from "../dispatch/types.ts";
import {RemascStorage} from "./storage.ts";

const NAME = "REMASC";
const REMASC = new Address(REMASC_ADDRESS);
const processMinersFees = abiFunction("processMinersFees", [], []);
const getStateForDebugging = abiFunction("getStateForDebugging", [], ["bytes"]);

export const remascContract: NativeContract = {
  name: NAME,
  address: REMASC_ADDRESS,
  // REMASC exists from genesis on every network.
  isActive: () => true,
  // Its storage is an ordinary account's, which a fork's state reads through the fork base and the
  // fork's own REMASC transactions write (docs/forking.md §6), so it runs on a fork as anywhere.
  runsOnFork: true,
  gas: () => 0n,
  async run(data, context) {
    if (data.length === 0 || equalBytes(data, processMinersFees.selector)) {
      refuse(
        NAME,
        processMinersFees.name,
        "only the block's REMASC transaction may invoke it",
        NativeContractFailureCode.CALLER_REFUSED,
      );
    }
    if (!equalBytes(data, getStateForDebugging.selector)) {
      refuse(NAME, "execute", "invalid function signature", NativeContractFailureCode.UNKNOWN_METHOD);
    }
    const storage = await RemascStorage.load(context.state, REMASC);
    const state = storage.encodeStateForDebugging();
    await storage.save(context.state, REMASC);
    return {output: encodeOutputs(getStateForDebugging, [state])};
  },
};
