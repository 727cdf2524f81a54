/** One block's EVM: the gas profile's opcodes and precompiles over a state session. */
import type {Common, StateManagerInterface} from "@ethereumjs/common";
import {createEVM, type EVM, type EVMMockBlockchainInterface, type EVMRunCallOpts} from "@ethereumjs/evm";
import {Address} from "@ethereumjs/util";
import {bigIntToFixedBytes} from "@xchain/utils";
import {profileParams} from "./common.ts";
import type {GasProfile} from "./gas/gasProfile.ts";
import type {BlockScope} from "./gas/types.ts";
import type {MessageTracker} from "./native/dispatch/adapter.ts";
import {nativeContractPrecompiles} from "./native/dispatch/install.ts";
import {type PreemptionSlot, preemptibleOpcodes} from "./preemptibleOpcodes.ts";
import {type OpcodeTraceSink, tracedOpcodes} from "./tracing/tracedOpcodes.ts";
import type {ExecutionBlockContext, ExecutionChainView} from "./types.ts";

/** The block object @ethereumjs/evm reads its block opcodes from. */
export type EvmBlock = NonNullable<EVMRunCallOpts["block"]>;

const ZERO_HASH = new Uint8Array(32);

/**
 * The EVM view of a block: DIFFICULTY (0x44) reads `prevRandao` under shanghai, so the block
 * difficulty goes there (docs/protocol/gas.md §7.4); BASEFEE reads `baseFeePerGas`, the block's
 * minimumGasPrice (RSKIP-412).
 */
export function evmBlock(block: ExecutionBlockContext): EvmBlock {
  return {
    header: {
      number: BigInt(block.number),
      coinbase: new Address(block.coinbase),
      timestamp: BigInt(block.timestamp),
      difficulty: block.difficulty,
      prevRandao: bigIntToFixedBytes(block.difficulty, 32),
      gasLimit: block.gasLimit,
      baseFeePerGas: block.minimumGasPrice,
      getBlobGasPrice: () => undefined,
    },
  };
}

// BLOCKHASH asks the blockchain for the block at a height within the last 256 (the opcode checks the
// window); on a fork, heights at or below the fork block are the upstream's (`ForkAncestry`).
function chainAdapter(chain: ExecutionChainView): EVMMockBlockchainInterface {
  const adapter: EVMMockBlockchainInterface = {
    getBlock: async (number) => {
      // Read per lookup: a call context's EVM is reused under views of successive calls (callRunner.ts).
      const ancestry = chain.forkAncestry;
      const below = ancestry !== undefined && Number(number) <= ancestry.number;
      const hash = (await (below ? ancestry.hashAt(Number(number)) : chain.blockHash(number))) ?? ZERO_HASH;
      return {hash: () => hash};
    },
    putBlock: async () => {},
    shallowCopy: () => adapter,
  };
  return adapter;
}

/** What an EVM is made for besides running a block. */
export interface EvmExtras {
  /** Calls: executions can be paused and stopped (preemption.ts). */
  preemption?: PreemptionSlot;
  /** Tracing: the message-making opcodes and SELFDESTRUCT report here (tracing/tracedOpcodes.ts). */
  trace?: OpcodeTraceSink;
}

/** A fresh EVM for one block (or one call) over `stateManager`. */
export async function createBlockEvm(
  profile: GasProfile,
  common: Common,
  stateManager: StateManagerInterface,
  chain: ExecutionChainView,
  scope: BlockScope,
  extras: EvmExtras = {},
): Promise<EVM> {
  let opcodes = profile.opcodes(common, scope);
  if (extras.preemption) opcodes = preemptibleOpcodes(opcodes, common, extras.preemption);
  if (extras.trace) opcodes = tracedOpcodes(opcodes, common, extras.trace);
  // A copy, because every EVM subscribes to its Common's events.
  const evmCommon = common.copy();
  // The native contracts and rskj-priced precompiles read their message from the EVM's last `beforeMessage`
  // (native/dispatch/adapter.ts).
  const messages: MessageTracker = {current: undefined};
  const precompiles = profile.precompiles(common, messages);
  // On a forked chain those that hold the upstream's state stop the message instead (docs/forking.md §6).
  precompiles.push(
    ...nativeContractPrecompiles({session: scope.native, chain, messages}, chain.forkAncestry !== undefined),
  );
  const evm = await createEVM({
    common: evmCommon,
    params: profileParams(profile),
    stateManager,
    blockchain: chainAdapter(chain),
    customOpcodes: opcodes,
    customPrecompiles: precompiles,
  });
  evm.events.on("beforeMessage", (message) => {
    messages.current = message;
  });
  return evm;
}
