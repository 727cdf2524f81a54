/**
 * `voteFeePerKbChange` (docs/protocol/native-contracts.md §10.12): rskj's `Bridge.voteFeePerKbChange`
 * and `FeePerKbSupportImpl`. The fee-per-kb authorizers elect a `setFeePerKb` call; when a value has
 * a majority of their votes it becomes `feePerKb` (what `getFeePerKb` answers and peg-out fees use)
 * and the election is cleared. Regtest has one authorizer, so each of its votes decides at once.
 */
import {abiFunction} from "../dispatch/abi.ts";
import {type BridgeCall, type BridgeMethod, price} from "./call.ts";
import {decodeRlpInteger, encodeRlpInteger} from "./serialization.ts";
import {isAuthorized, UNAUTHORIZED_CALLER} from "./votes.ts";

/** rskj's `FeePerKbResponseCode`. */
export const FeePerKbResponse = {
  SUCCESSFUL_VOTE: 1n,
  UNSUCCESSFUL_VOTE: -1n,
  NEGATIVE_FEE_VOTED: -1n,
  EXCESSIVE_FEE_VOTED: -2n,
  GENERIC_ERROR: -10n,
} as const;

/** The function name the election's call spec carries. */
export const SET_FEE_PER_KB = "setFeePerKb";

/** The fee of the winning spec, `deserializeCoin` of its first argument, or undefined where rskj catches a failure. */
function winnerFee(args: readonly Uint8Array[]): bigint | undefined {
  const [encoded] = args;
  if (!encoded || encoded.length === 0) return undefined;
  try {
    const fee = decodeRlpInteger(SET_FEE_PER_KB, encoded);
    return BigInt.asIntN(64, fee) === fee ? fee : undefined;
  } catch {
    return undefined;
  }
}

async function voteFeePerKbChange([value]: unknown[], call: BridgeCall): Promise<bigint> {
  const fee = value as bigint;
  // The Bridge reads the argument as a long (`longValueExact`) before anything else.
  if (BigInt.asIntN(64, fee) !== fee) return FeePerKbResponse.GENERIC_ERROR;
  const {constants} = call.storage;
  if (!isAuthorized(constants.feePerKbChangeAuthorizer, call)) return UNAUTHORIZED_CALLER;
  if (fee <= 0n) return FeePerKbResponse.NEGATIVE_FEE_VOTED;
  if (fee > constants.maxFeePerKb) return FeePerKbResponse.EXCESSIVE_FEE_VOTED;
  const election = await call.storage.feePerKbElection();
  if (!election.vote({fn: SET_FEE_PER_KB, args: [encodeRlpInteger(fee)]}, call.context.sender)) {
    return FeePerKbResponse.UNSUCCESSFUL_VOTE;
  }
  const winner = election.winner();
  if (!winner) return FeePerKbResponse.SUCCESSFUL_VOTE;
  const decided = winnerFee(winner.args);
  if (decided === undefined) return FeePerKbResponse.GENERIC_ERROR;
  call.storage.setFeePerKb(decided);
  election.clear();
  return FeePerKbResponse.SUCCESSFUL_VOTE;
}

export const voteFeePerKbChangeMethod: BridgeMethod = {
  fn: abiFunction("voteFeePerKbChange", ["int256"], ["int256"]),
  gas: price(10_000),
  acceptsStaticCall: false,
  run: voteFeePerKbChange,
};
