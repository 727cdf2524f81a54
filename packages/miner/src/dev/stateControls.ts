/**
 * anvil's and Hardhat's state controls (docs/rpc.md §4.10 "State"): balances, nonces, code, storage
 * and ERC-20 balances and allowances of the head's state, edited in place through the chain's
 * `editHeadState` (one batch, persisted). Reads at `latest` and `pending` see an edit at once (the
 * miner drops its work and pending block on the chain's `stateEdited`), and the next block mined
 * carries it in its state root (docs/architecture.md, "Dev state edits").
 */
import type {Chainspec} from "@xchain/chainspec";
import type {StateSource} from "@xchain/state";
import {bigIntToFixedBytes, bytesToPrefixedHex} from "@xchain/utils";
import type {MinerChain} from "../deps.ts";
import {checkDevControls, notAllowed} from "../devControls.ts";
import {templateChainView} from "../template/chainReads.ts";
import type {StateControls} from "../types.ts";
import {addressCall, findErc20Slot} from "./erc20Slots.ts";

const UINT256_MAX = (1n << 256n) - 1n;

/** What the state controls act on. */
export interface StateControlsDeps {
  chain: Pick<MinerChain, "head" | "editHeadState" | "stateRootAfter" | "getHeaderByNumber">;
  chainspec: Chainspec;
  /** The state the ERC-20 probes run calls on; absent, dealERC20 and setERC20Allowance refuse. */
  probeState?: StateSource;
  /** The miner's `devControls` option. */
  enabled: boolean;
}

/** The state controls; every one NOT_ALLOWED when the dev controls are disabled. */
export class DevStateControls implements StateControls {
  constructor(private readonly deps: StateControlsDeps) {}

  setBalance(address: Uint8Array, balance: bigint): Promise<void> {
    checkDevControls(this.deps.enabled);
    return this.deps.chain.editHeadState((state) => state.setBalance(address, balance));
  }

  /** anvil's: the balance plus `amount`, capped at 2^256 − 1. */
  addBalance(address: Uint8Array, amount: bigint): Promise<void> {
    checkDevControls(this.deps.enabled);
    return this.deps.chain.editHeadState(async (state) => {
      const balance = ((await state.getAccount(address))?.balance ?? 0n) + amount;
      await state.setBalance(address, balance > UINT256_MAX ? UINT256_MAX : balance);
    });
  }

  setCode(address: Uint8Array, code: Uint8Array): Promise<void> {
    checkDevControls(this.deps.enabled);
    return this.deps.chain.editHeadState((state) => state.setCode(address, code));
  }

  setNonce(address: Uint8Array, nonce: bigint): Promise<void> {
    checkDevControls(this.deps.enabled);
    return this.deps.chain.editHeadState((state) => state.setNonce(address, nonce));
  }

  setStorageAt(address: Uint8Array, slot: Uint8Array, value: Uint8Array): Promise<void> {
    checkDevControls(this.deps.enabled);
    return this.deps.chain.editHeadState((state) => state.setStorage(address, slot, value));
  }

  dealErc20(holder: Uint8Array, token: Uint8Array, balance: bigint): Promise<void> {
    return this.setErc20Word(token, addressCall("balanceOf(address)", holder), balance, "balance");
  }

  setErc20Allowance(owner: Uint8Array, spender: Uint8Array, token: Uint8Array, amount: bigint): Promise<void> {
    return this.setErc20Word(token, addressCall("allowance(address,address)", owner, spender), amount, "allowance");
  }

  /** Finds the slot the getter `data` reads (on the state being edited) and writes `value` there. */
  private setErc20Word(token: Uint8Array, data: Uint8Array, value: bigint, what: string): Promise<void> {
    checkDevControls(this.deps.enabled);
    const {chain, chainspec, probeState} = this.deps;
    if (!probeState) throw notAllowed(`this node runs no calls for the dev controls: cannot find an ERC-20 ${what}`);
    return chain.editHeadState(async (state) => {
      // Inside the edit: the head and its state are the ones being edited until it returns.
      const head = chain.head();
      const probe = {
        chainspec,
        state: probeState,
        root: chain.stateRootAfter(head.header),
        head: head.header,
        chain: await templateChainView(chain, head.number, chainspec.params.remascMaturity),
      };
      const slot = await findErc20Slot(probe, token, data, value);
      if (!slot) {
        throw notAllowed(
          `unable to set the ERC-20 ${what}: no storage slot of ${bytesToPrefixedHex(token)} read by its getter answers the value written there`,
        );
      }
      await state.setStorage(token, slot, bigIntToFixedBytes(value, 32));
    });
  }
}
