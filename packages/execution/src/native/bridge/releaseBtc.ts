/**
 * `releaseBtc()` (docs/protocol/native-contracts.md §10.7; rskj's `BridgeSupport.releaseBtc`,
 * `requestRelease`): a peg-out request, also made by a transfer with no data. The value has already
 * moved to the Bridge with the call. A contract's request is rejected and its value kept (RSKIP-185);
 * a request under the minimum is refunded whole, in wei (RSKIP-427), and rejected; any other joins
 * the queue for the Bitcoin address of the key that signed the transaction.
 */

import {Account, Address} from "@ethereumjs/util";
import {BRIDGE_ADDRESS} from "@xchain/chainspec";
import {hash160, publicKeyForms} from "@xchain/utils";
import {abiFunction} from "../dispatch/abi.ts";
import {type BridgeCall, type BridgeMethod, bridgeFailure, price} from "./call.ts";
import {BridgeEvents, eventLog} from "./events.ts";
import {base58Address} from "./federation.ts";
import {estimatedPegoutFees} from "./pegoutFees.ts";

/** rskj's `RejectedPegoutReason`. */
export enum RejectedPegoutReason {
  LOW_AMOUNT = 1,
  CALLER_CONTRACT = 2,
  FEE_ABOVE_VALUE = 3,
}

const WEI_PER_SATOSHI = 10n ** 10n;

/** Moves `amount` wei between two accounts of the call's state (the Bridge pays refunds and peg-ins). */
export async function transfer(call: BridgeCall, from: Uint8Array, to: Uint8Array, amount: bigint): Promise<void> {
  const {state} = call.context;
  const source = (await state.getAccount(new Address(from))) ?? new Account();
  source.balance -= amount;
  await state.putAccount(new Address(from), source);
  const target = (await state.getAccount(new Address(to))) ?? new Account();
  target.balance += amount;
  await state.putAccount(new Address(to), target);
}

/** The smallest peg-out in satoshis and whether the fee decides it (rskj's RSKIP-219 rule). */
async function minimumPegout(call: BridgeCall): Promise<{minimum: bigint; feeDecides: boolean}> {
  const constants = call.storage.constants;
  const fee = estimatedPegoutFees(call.federation, await call.storage.feePerKb(), 2, 2);
  const required = fee + (fee * BigInt(constants.minimumPegoutValuePercentageToReceiveAfterFee)) / 100n;
  const minimum = required > constants.minimumPegoutTxValue ? required : constants.minimumPegoutTxValue;
  return {minimum, feeDecides: minimum === required};
}

/** Runs a peg-out request of the call's value. */
export async function releaseBtc(call: BridgeCall): Promise<void> {
  const {context, storage, logs} = call;
  const {value, sender} = context;
  // Only a transaction's own signature names a Bitcoin key: a contract cannot ask (RSKIP-185).
  if (context.callType !== "TRANSACTION") {
    logs.push(
      eventLog(BridgeEvents.releaseRequestRejected, [sender, value, BigInt(RejectedPegoutReason.CALLER_CONTRACT)]),
    );
    return;
  }
  const publicKey = context.transactionPublicKey;
  if (!publicKey) throw bridgeFailure("releaseBtc", "no transaction signature to derive the Bitcoin address from");
  const destinationHash160 = hash160(publicKeyForms(publicKey).compressed);
  const satoshis = value / WEI_PER_SATOSHI;
  const {minimum, feeDecides} = await minimumPegout(call);
  if (satoshis < minimum) {
    await transfer(call, BRIDGE_ADDRESS, sender, value);
    const reason = feeDecides ? RejectedPegoutReason.FEE_ABOVE_VALUE : RejectedPegoutReason.LOW_AMOUNT;
    logs.push(eventLog(BridgeEvents.releaseRequestRejected, [sender, value, BigInt(reason)]));
    return;
  }
  const queue = await storage.releaseRequestQueue();
  queue.push({destinationHash160, amount: satoshis, rskTxHash: context.transactionHash});
  storage.setReleaseRequestQueue(queue);
  const destination = base58Address(storage.constants.btcParams.p2pkhVersion, destinationHash160);
  logs.push(eventLog(BridgeEvents.releaseRequestReceived, [sender, destination, value]));
}

/** The method, also what empty input runs. */
export const releaseBtcMethod: BridgeMethod = {
  fn: abiFunction("releaseBtc", [], []),
  gas: price(23_000),
  acceptsStaticCall: false,
  run: async (_args, call) => {
    await releaseBtc(call);
    return undefined;
  },
};
