/**
 * The genesis block (docs/protocol/README.md §2, docs/protocol/networks.md §2): the allocation's MPT state
 * root in rskj's genesis header layout, no transactions, no uncles. Deterministic: the same parameters give
 * the same hash.
 */
import {buildGenesisHeader, type Chainspec, type GenesisParams} from "@xchain/chainspec";
import type {BatchOp} from "@xchain/db";
import type {createChainCommon} from "@xchain/execution";
import {Block} from "@xchain/primitives";
import {buildGenesisState, type StateSource} from "@xchain/state";

/** The genesis block and the state trie writes that store its state. */
export interface GenesisBuild {
  block: Block;
  stateWrites: BatchOp[];
}

/** Builds the genesis block of `genesis` on `chainspec` (nothing is written). */
export async function buildGenesisBlock(
  genesis: GenesisParams,
  chainspec: Chainspec,
  state: StateSource,
  common: ReturnType<typeof createChainCommon>,
): Promise<GenesisBuild> {
  const {root, writes} = await buildGenesisState(
    state,
    genesis.alloc.map((account) => [account.address, account]),
    common,
  );
  return {block: new Block(buildGenesisHeader(genesis.header, root, chainspec), [], []), stateWrites: writes};
}
