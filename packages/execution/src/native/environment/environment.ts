/**
 * The Environment native contract at 0x…01000011 (RSKIP-203; docs/protocol/native-contracts.md §4):
 * `getCallStackDepth()` answers the depth of the frame that called it, plus one (1 for a transaction
 * sent to it), for no gas.
 */
import {precompiledAddress} from "../../precompiles/addresses.ts";
import {abiFunction} from "../dispatch/abi.ts";
import {nativeMethodsContract} from "../dispatch/nativeMethods.ts";
import type {NativeContract} from "../dispatch/types.ts";

const getCallStackDepth = abiFunction("getCallStackDepth", [], ["uint32"]);

/** The Environment contract. */
export const environment: NativeContract = nativeMethodsContract({
  name: "Environment",
  address: precompiledAddress(0x01000011),
  isActive: (chainspec, blockNumber) => chainspec.isActive("RSKIP203", blockNumber),
  // Stateless: it runs on a fork as anywhere (docs/forking.md §6).
  runsOnFork: true,
  methods: [
    {
      fn: getCallStackDepth,
      gas: () => 0n,
      // rskj: the caller's ProgramInvoke call depth + 1, or 1 without one (a transaction). The contract's
      // own frame is one deeper than its caller's, so that is its own depth, at least 1.
      execute: (_args, context) => BigInt(Math.max(1, context.depth)),
    },
  ],
});
