// What the in-process eth_call benchmarks (call.mjs, callWorkers.mjs) share: the block a call runs
// in, a chain view without ancestors, 32-byte words, and the ERC-20 token's runtime code.
import {EMPTY_TRIE_ROOT} from "@xchain/state";
import {compileSolidity} from "@xchain/test-utils";
import {concatBytes} from "@xchain/utils";
import {SOLIDITY_HEADER, TOKEN_CONTRACT} from "./token.mjs";

/** The block context of every call. */
export const CALL_BLOCK = {
  number: 1,
  timestamp: 1_700_000_000,
  coinbase: new Uint8Array(20),
  difficulty: 1n,
  gasLimit: 6_800_000n,
  minimumGasPrice: 0n,
};

/** The parentHash a call carries, as rpc gives it (a call worker's BLOCKHASH(0); no benchmark reads it). */
export const CALL_PARENT_HASH = new Uint8Array(32).fill(0xab);

/** No BLOCKHASH ancestors, no REMASC matured block. */
export const NO_ANCESTORS = {blockHash: async () => undefined, remasc: undefined};

/** `bytes` left-padded to 32. */
export const word = (bytes) => concatBytes(new Uint8Array(32 - bytes.length), bytes);

/** The compiled token and its runtime code (what its creation code returns, run by `executor`). */
export async function tokenRuntime(executor, from) {
  const {Token} = compileSolidity(`${SOLIDITY_HEADER}${TOKEN_CONTRACT}`);
  const created = await executor.call({
    block: CALL_BLOCK,
    chain: NO_ANCESTORS,
    stateRoot: EMPTY_TRIE_ROOT,
    from,
    data: Token.bytecode,
    gasLimit: 5_000_000n,
  });
  if (!created.status) throw new Error("token creation failed");
  return {Token, code: created.returnValue};
}
