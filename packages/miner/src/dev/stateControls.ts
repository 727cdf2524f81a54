/**
 * anvil's and Hardhat's state controls (docs/rpc.md §4.10 "State"): balances, nonces, code, storage
 * and ERC-20 balances and allowances of the head's state, edited in place through the chain's
 * `editHeadState` (one batch, persisted). Reads at `latest` and `pending` see an edit at once (the
 * miner drops its work and pending block on the chain's `stateEdited`), and the next block mined
 * carries it in its state root (docs/architecture.md, "Dev state edits").
 */
import type {HeadStateEditor} from "@xchain/chain";
import type {Chainspec} from "@xchain/chainspec";
import {REMASC_ADDRESS, REMASC_SENDER} from "@xchain/primitives";
import type {StateSource} from "@xchain/state";
import {bigIntToFixedBytes, bytesToPrefixedHex, equalBytes} from "@xchain/utils";
import type {MinerChain} from "../deps.ts";
import {callChainView} from "../template/chainReads.ts";
import {addressCall, findErc20Slot} from "./erc20Slots.ts";
import {notAllowed} from "./notAllowed.ts";
import type {StateControls} from "./types.ts";

const UINT256_MAX = (1n << 256n) - 1n;

/** What the state controls act on. */
export interface StateControlsDeps {
  chain: Pick<
    MinerChain,
    "head" | "fork" | "editHeadState" | "stateRootAfter" | "getHeaderByNumber" | "getBlock" | "getTotalDifficulty"
  >;
  chainspec: Chainspec;
  /** The state the ERC-20 probes run calls on; absent, dealERC20 and setERC20Allowance refuse. */
  probeState?: StateSource;
  /**
   * Runs an edit with the built-in miner held (`AutoMiner.exclusive`): a block made on the state before
   * the edit would not import on the edited one.
   */
  exclusive: <T>(task: () => Promise<T>) => Promise<T>;
}

/** The state controls; every one NOT_ALLOWED when the dev controls are disabled. */
export class DevStateControls implements StateControls {
  constructor(private readonly deps: StateControlsDeps) {}

  setBalance(address: Uint8Array, balance: bigint): Promise<void> {
    return this.edit(address, (state) => state.setBalance(address, balance));
  }

  /** anvil's: the balance plus `amount`, capped at 2^256 − 1. */
  addBalance(address: Uint8Array, amount: bigint): Promise<void> {
    return this.edit(address, async (state) => {
      const balance = ((await state.getAccount(address))?.balance ?? 0n) + amount;
      await state.setBalance(address, balance > UINT256_MAX ? UINT256_MAX : balance);
    });
  }

  setCode(address: Uint8Array, code: Uint8Array): Promise<void> {
    return this.edit(address, (state) => state.setCode(address, code));
  }

  /** The zero address's nonce is refused: it is the REMASC transaction's, block number − 1. */
  setNonce(address: Uint8Array, nonce: bigint): Promise<void> {
    if (equalBytes(address, REMASC_SENDER)) {
      throw notAllowed(
        "the nonce of the zero address is the REMASC transaction's (block number - 1): every block would be invalid",
      );
    }
    return this.edit(address, (state) => state.setNonce(address, nonce));
  }

  setStorageAt(address: Uint8Array, slot: Uint8Array, value: Uint8Array): Promise<void> {
    return this.edit(address, (state) => state.setStorage(address, slot, value));
  }

  dealErc20(holder: Uint8Array, token: Uint8Array, balance: bigint): Promise<void> {
    return this.setErc20Word(token, addressCall("balanceOf(address)", holder), balance, "balance");
  }

  setErc20Allowance(owner: Uint8Array, spender: Uint8Array, token: Uint8Array, amount: bigint): Promise<void> {
    return this.setErc20Word(token, addressCall("allowance(address,address)", owner, spender), amount, "allowance");
  }

  /** The one way in: the dev controls' check, REMASC's account refused, then the edit of the head's state. */
  private edit(address: Uint8Array, change: (state: HeadStateEditor) => Promise<void>): Promise<void> {
    refuseRemascAccount(address);
    return this.deps.exclusive(() => this.deps.chain.editHeadState(change));
  }

  /** Finds the slot the getter `data` reads (on the state being edited) and writes `value` there. */
  private setErc20Word(token: Uint8Array, data: Uint8Array, value: bigint, what: string): Promise<void> {
    const {chain, chainspec, probeState} = this.deps;
    return this.edit(token, async (state) => {
      if (!probeState) throw notAllowed(`this node runs no calls for the dev controls: cannot find an ERC-20 ${what}`);
      // Inside the edit: the head and its state are the ones being edited until it returns.
      const head = chain.head();
      const probe = {
        chainspec,
        state: probeState,
        root: chain.stateRootAfter(head.header),
        head: head.header,
        chain: callChainView(chain, head.number),
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

/**
 * REMASC's account holds the fees it pays out and its storage (docs/protocol/native-contracts.md §11): an
 * edit of it makes the blocks that pay them invalid, so the controls leave it to the protocol.
 */
function refuseRemascAccount(address: Uint8Array): void {
  if (equalBytes(address, REMASC_ADDRESS)) {
    throw notAllowed(
      `${bytesToPrefixedHex(REMASC_ADDRESS)} is REMASC's account, which holds the fees blocks pay out: it cannot be edited`,
    );
  }
}
