/**
 * The federators' own methods, rskj's `updateCollections` (48,000 gas) and `addSignature` (70,000), which
 * rskj enables on every network (docs/protocol/native-contracts.md §10.8). They are parsed and priced as
 * rskj does, so a sender that is not a federator fails as on rskj, paying the method's price plus 2 gas
 * per input byte rather than unparseable input's 23,000. A federator's call fails too: the peg-out
 * builder, the federation's wallet and the signatures (tier C) are not built. On regtest's default
 * federation nobody holds a federator's key, so only `bridge.genesisFederationPublicKeys` meets that case.
 */
import {abiFunction} from "../dispatch/abi.ts";
import {type BridgeMethod, bridgeFailure, price, requireFederator} from "./call.ts";

/** A federator-only method with no implementation beyond its guard. */
function federatorOnly(name: string, inputs: string[], gas: number): BridgeMethod {
  return {
    fn: abiFunction(name, inputs, []),
    gas: price(gas),
    acceptsStaticCall: false,
    run: (_args, call) => {
      requireFederator(call, name);
      throw bridgeFailure(name, "the federators' side of the Bridge (tier C) is not implemented");
    },
  };
}

export const federatorMethods: readonly BridgeMethod[] = [
  federatorOnly("updateCollections", [], 48_000),
  federatorOnly("addSignature", ["bytes", "bytes[]", "bytes"], 70_000),
];
