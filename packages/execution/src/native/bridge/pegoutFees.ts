/**
 * A peg-out's estimated fee (docs/protocol/native-contracts.md §10.7): rskj's `calculatePegoutTxSize`
 * for a standard multisig federation (`calculateLegacyTxSize`): the serialized size of a transaction
 * whose inputs each carry the redeem script as scriptSig and whose outputs each pay the federation's
 * P2SH address, plus 72 bytes per required signature per input; times the fee per kb, over 1000.
 * rskj first simulates the real peg-out when the federation holds UTXOs (RSKIP-305); xchain always
 * answers this fallback, which is rskj's answer while the federation holds none.
 */
import type {Federation} from "./federation.ts";

/** Bitcoin's CompactSize length of `n`. */
const varIntSize = (n: number): number => (n < 0xfd ? 1 : n <= 0xffff ? 3 : 5);

const SIGNATURE_SIZE = 72;
/** A P2SH output: value (8), script length (1), OP_HASH160 <20> OP_EQUAL (23). */
const P2SH_OUTPUT_SIZE = 8 + 1 + 23;

/** The size rskj estimates for a peg-out of `inputs` inputs and `outputs` outputs. */
export function pegoutTxSize(federation: Federation, inputs: number, outputs: number): number {
  const script = federation.redeemScript.length;
  const input = 32 + 4 + varIntSize(script) + script + 4;
  const base = 4 + varIntSize(inputs) + inputs * input + varIntSize(outputs) + outputs * P2SH_OUTPUT_SIZE + 4;
  return base + federation.threshold * inputs * SIGNATURE_SIZE;
}

/** The fee of such a peg-out at `feePerKb` satoshis per 1000 bytes. */
export function estimatedPegoutFees(federation: Federation, feePerKb: bigint, inputs: number, outputs: number): bigint {
  return (feePerKb * BigInt(pegoutTxSize(federation, inputs, outputs))) / 1000n;
}
