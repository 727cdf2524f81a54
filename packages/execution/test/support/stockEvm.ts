/**
 * Stock @ethereumjs/evm shanghai (+1153, +5656) with Ethereum's transaction rules (refund cap
 * gasUsed/5, EIP-161 clean-up), to compare gas with the rskj profile as docs/protocol/gas.md §10 does.
 */
import {createCustomCommon, Hardfork, Mainnet} from "@ethereumjs/common";
import {createEVM, type EVM} from "@ethereumjs/evm";
import {createMPT} from "@ethereumjs/mpt";
import {Caches, MerkleStateManager} from "@ethereumjs/statemanager";
import {Account, Address} from "@ethereumjs/util";
import type {Transaction} from "@xchain/primitives";
import {intrinsicGas} from "../../src/index.ts";

export class StockEthereum {
  private constructor(private readonly evm: EVM) {}

  static async create(accounts: {address: Uint8Array; balance: bigint}[]): Promise<StockEthereum> {
    const common = createCustomCommon({chainId: 33}, Mainnet, {hardfork: Hardfork.Shanghai, eips: [1153, 5656]});
    const stateManager = new MerkleStateManager({
      trie: await createMPT({useKeyHashing: true}),
      common,
      caches: new Caches(),
    });
    for (const {address, balance} of accounts)
      await stateManager.putAccount(new Address(address), new Account(0n, balance));
    return new StockEthereum(await createEVM({common, stateManager}));
  }

  /** Runs `tx` (sender and nonce as signed); returns Ethereum's gasUsed and the created address. */
  async run(tx: Transaction): Promise<{gasUsed: bigint; contractAddress?: Uint8Array}> {
    const intrinsic = intrinsicGas(tx);
    const caller = new Address(tx.sender());
    const result = await this.evm.runCall({
      caller,
      origin: caller,
      to: tx.to === undefined ? undefined : new Address(tx.to),
      value: tx.value,
      data: tx.data,
      gasLimit: tx.gasLimit - intrinsic,
      gasPrice: tx.gasPrice,
    });
    const used = intrinsic + result.execResult.executionGasUsed;
    const counter = result.execResult.gasRefund ?? 0n;
    const refund = counter < used / 5n ? counter : used / 5n;
    await this.evm.journal.cleanup();
    const out: {gasUsed: bigint; contractAddress?: Uint8Array} = {gasUsed: used - refund};
    if (result.createdAddress) out.contractAddress = result.createdAddress.bytes;
    return out;
  }
}
