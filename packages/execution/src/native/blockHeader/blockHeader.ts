/**
 * The BlockHeader native contract at 0x…01000010 (RSKIP-119; docs/protocol/native-contracts.md §3): fields of
 * the executing block's ancestors, each method `(int256 blockDepth, …) returns (bytes)`, priced 4,000 + 2 gas
 * per input byte. Depth 0 is the executing block's parent (in eth_call at block B, B's parent).
 */
import {HeaderField} from "@xchain/primitives";
import {bigIntToSignedBytes} from "@xchain/utils";
import {precompiledAddress} from "../../precompiles/addresses.ts";
import {abiFunction} from "../dispatch/abi.ts";
import {type NativeMethod, nativeMethodsContract} from "../dispatch/nativeMethods.ts";
import type {NativeContract} from "../dispatch/types.ts";
import {type BlockAt, blockAtDepth, mergedMiningTags, NAME, uncleCoinbase} from "./blockAccess.ts";

const address = precompiledAddress(0x01000010);

const onlyDepth = ["int256"];

/** A method answering `read(block)` for the block at its first argument's depth (empty bytes when there is none). */
function blockMethod(
  name: string,
  read: (block: BlockAt, args: bigint[]) => Promise<Uint8Array | undefined> | Uint8Array | undefined,
  options: {inputs?: string[]; rskip536?: boolean} = {},
): NativeMethod {
  const method: NativeMethod = {
    fn: abiFunction(name, options.inputs ?? onlyDepth, ["bytes"]),
    gas: (_args, data) => 4_000n + 2n * BigInt(data.length),
    execute: async (args, context) => {
      const block = await blockAtDepth(address, args[0] as bigint, context);
      return block === undefined ? new Uint8Array(0) : read(block, args as bigint[]);
    },
  };
  if (options.rskip536) return {...method, enabled: (c) => c.chainspec.isActive("RSKIP536", c.block.number)};
  return method;
}

/** The BlockHeader contract. */
export const blockHeader: NativeContract = nativeMethodsContract({
  name: NAME,
  address,
  isActive: (chainspec, blockNumber) => chainspec.isActive("RSKIP119", blockNumber),
  // On a fork it answers the blocks above the fork block; a depth reaching the upstream's stops the message.
  runsOnFork: true,
  methods: [
    blockMethod("getCoinbaseAddress", ({header}) => header.coinbase),
    blockMethod("getBlockHash", ({header}) => header.hash()),
    blockMethod("getMergedMiningTags", ({header}) => mergedMiningTags(header)),
    blockMethod("getMinGasPrice", ({header}) => bigIntToSignedBytes(header.minimumGasPrice)),
    // The field's bytes as the header carries them, not re-encoded.
    blockMethod("getGasLimit", ({header}) => header.rawField(HeaderField.gasLimit)),
    blockMethod("getGasUsed", ({header}) => bigIntToSignedBytes(header.gasUsed)),
    blockMethod("getDifficulty", ({header}) => bigIntToSignedBytes(header.difficulty)),
    // rskj's null for a header without merged-mining fields: no output bytes at all.
    blockMethod("getBitcoinHeader", ({header}) => header.mergedMining?.bitcoinHeader),
    blockMethod("getUncleCoinbaseAddress", (block, args) => uncleCoinbase(block, args[1] as bigint), {
      inputs: ["int256", "int256"],
    }),
    blockMethod(
      "getCumulativeWork",
      async ({header, chain}) => bigIntToSignedBytes((await chain.totalDifficulty(header.hash())) ?? 0n),
      {rskip536: true},
    ),
    blockMethod(
      "getDifficultyWithUncles",
      async ({header, chain}) => {
        const uncles = (await chain.uncles(header.hash())) ?? [];
        return bigIntToSignedBytes(uncles.reduce((sum, uncle) => sum + uncle.difficulty, header.difficulty));
      },
      {rskip536: true},
    ),
  ],
});
