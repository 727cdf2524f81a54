/**
 * rskj's REMASC distribution (`Remasc.processMinersFees`, `SiblingPaymentCalculator`; docs/protocol/
 * native-contracts.md §11.1): the processed block's fees join the reward pool, and from
 * block maturity + syntheticSpan on 1/syntheticSpan of the pool is paid out: a fifth to RSK Labs, a
 * hundredth of the rest to the federators, the rest to the processed block's miner, or shared with
 * its siblings and their publishers, with burns for late inclusion and a broken selection rule.
 * Pure over `RemascStorage`: the caller moves the balances and writes the logs.
 */
import type {Chainspec} from "@xchain/chainspec";
import type {RemascAncestry, RemascSibling} from "./ancestry.ts";
import {federatorAddresses} from "./federation.ts";
import {isBrokenSelectionRule} from "./selectionRule.ts";
import type {RemascStorage} from "./storage.ts";

/** One payment, in the order rskj makes (and logs) them. */
export interface RemascPayout {
  to: Uint8Array;
  value: bigint;
  /** The processed block's hash, which the payment's log names. */
  blockHash: Uint8Array;
}

/** The block executing the REMASC transaction. */
export interface RemascBlock {
  number: number;
  minimumGasPrice: bigint;
}

/** Runs the distribution for `block` on `storage`; the payments to make (all from the processed block). */
export function processMinersFees(
  chainspec: Chainspec,
  block: RemascBlock,
  ancestry: RemascAncestry | undefined,
  storage: RemascStorage,
): RemascPayout[] {
  if (ancestry === undefined) return [];
  const params = chainspec.params.remasc;
  const {processing, siblings} = ancestry;
  const candidate = block.number - chainspec.params.remascMaturity;
  storage.set("rewardBalance", storage.values.rewardBalance + processing.paidFees);
  if (BigInt(candidate) < params.syntheticSpan) return [];

  const previousBroken = storage.values.brokenSelectionRule;
  storage.set("brokenSelectionRule", siblings.length > 0 && isBrokenSelectionRule(processing, siblings));
  let reward = storage.values.rewardBalance / params.syntheticSpan;
  const rskip85 = chainspec.isActive("RSKIP85", block.number);
  if (rskip85 && reward < block.minimumGasPrice * params.minimumPayableGas) return [];
  storage.set("rewardBalance", storage.values.rewardBalance - reward);

  const payouts: RemascPayout[] = [];
  const blockHash = processing.hash();
  const pay = (to: Uint8Array, value: bigint) => {
    payouts.push({to, value, blockHash});
  };
  const labsShare = reward / params.rskLabsDivisor;
  pay(
    block.number >= params.rskip218 && params.rskip218 >= 0 ? params.rskLabsAddressRskip218 : params.rskLabsAddress,
    labsShare,
  );
  reward -= labsShare;

  const federationShare = reward / params.federationDivisor;
  payFederation(chainspec, block, storage, federationShare, rskip85, pay);
  reward -= federationShare;

  if (siblings.length === 0) {
    if (previousBroken) {
      const punishment = reward / params.punishmentDivisor;
      reward -= punishment;
      burn(storage, punishment);
    }
    pay(processing.coinbase, reward);
  } else {
    pay(processing.coinbase, payWithSiblings(chainspec, candidate, reward, siblings, previousBroken, storage, pay));
  }
  return payouts;
}

/** The federation's share plus what was deferred, split evenly (the remainder to the last federator). */
function payFederation(
  chainspec: Chainspec,
  block: RemascBlock,
  storage: RemascStorage,
  share: bigint,
  rskip85: boolean,
  pay: (to: Uint8Array, value: bigint) => void,
): void {
  const federators = federatorAddresses(chainspec.params.bridge);
  const total = storage.values.federationBalance + share;
  const count = BigInt(federators.length);
  const each = total / count;
  const rest = total % count;
  if (rskip85) {
    if (each < block.minimumGasPrice * chainspec.params.remasc.federatorMinimumPayableGas) {
      storage.set("federationBalance", total);
      return;
    }
    storage.set("federationBalance", 0n);
  }
  for (const [k, federator] of federators.entries()) pay(federator, k === federators.length - 1 ? each + rest : each);
}

/** Each miner's share when the processed block has `count` siblings (rskj `SiblingPaymentCalculator`). */
function minerShare(
  chainspec: Chainspec,
  reward: bigint,
  count: number,
  previousBroken: boolean,
): {individual: bigint; surplus: bigint; punishment: bigint} {
  const params = chainspec.params.remasc;
  const miners = reward - reward / params.publishersDivisor;
  const share = miners / BigInt(count + 1);
  const punishment = previousBroken ? share / params.punishmentDivisor : 0n;
  return {individual: share - punishment, surplus: miners % BigInt(count + 1), punishment};
}

/**
 * Pays the publishers and the siblings' miners, burning the remainders and the punishments; the
 * processed block's miner's share, which the caller pays last.
 */
function payWithSiblings(
  chainspec: Chainspec,
  candidate: number,
  reward: bigint,
  siblings: readonly RemascSibling[],
  previousBroken: boolean,
  storage: RemascStorage,
  pay: (to: Uint8Array, value: bigint) => void,
): bigint {
  const params = chainspec.params.remasc;
  const count = BigInt(siblings.length);
  const publishers = reward / params.publishersDivisor;
  const miner = minerShare(chainspec, reward, siblings.length, previousBroken);
  for (const sibling of siblings) pay(sibling.includedBlockCoinbase, publishers / count);
  burn(storage, publishers % count);
  burn(storage, miner.surplus);
  for (const sibling of siblings) {
    const blocksLate = BigInt(sibling.includedHeight - candidate - 1);
    const latePunishment = (miner.individual * blocksLate) / params.lateUncleInclusionPunishmentDivisor;
    pay(sibling.coinbase, miner.individual - latePunishment);
    burn(storage, latePunishment);
  }
  if (previousBroken) burn(storage, miner.punishment * (count + 1n));
  return miner.individual;
}

/** Burns `value`: counted in `burnedBalance`, it stays in REMASC's balance. */
function burn(storage: RemascStorage, value: bigint): void {
  storage.set("burnedBalance", storage.values.burnedBalance + value);
}
