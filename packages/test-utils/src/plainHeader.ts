/** Headers for tests that read headers rather than blocks (uncle rules, BLOCKHASH lookups). */
import type {Chainspec} from "@xchain/chainspec";
import {BlockHeader, unclesHash} from "@xchain/primitives";

/**
 * An unsealed header at `number` over `parentHash` (the zero hash for a genesis) with difficulty 1 and
 * empty roots; `salt` (its coinbase byte, extraData and timestamp offset) tells siblings apart.
 */
export function plainHeader(
  number: number,
  parentHash: Uint8Array,
  chainspec: Chainspec,
  salt = 0,
  uncles: BlockHeader[] = [],
): BlockHeader {
  return BlockHeader.fromValues(
    {
      parentHash,
      unclesHash: unclesHash(uncles),
      coinbase: new Uint8Array(20).fill(salt),
      stateRoot: new Uint8Array(32),
      txTrieRoot: new Uint8Array(32),
      receiptTrieRoot: new Uint8Array(32),
      logsBloom: new Uint8Array(256),
      difficulty: 1n,
      number,
      gasLimit: 6_800_000n,
      gasUsed: 0n,
      timestamp: 1_700_000_000 + number * 10 + salt,
      extraData: new Uint8Array([salt]),
      paidFees: 0n,
      minimumGasPrice: 0n,
      uncleCount: uncles.length,
      ummRoot: chainspec.hasUmmRoot(number) ? new Uint8Array(0) : undefined,
    },
    chainspec,
  );
}
