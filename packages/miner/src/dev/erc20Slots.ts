/**
 * Where an ERC-20 token keeps one balance or allowance (anvil_dealERC20, anvil_setERC20Allowance), found
 * as anvil finds it: run the getter (`balanceOf(holder)`, `allowance(owner, spender)`) on the state,
 * note every storage slot of the token it reads, then re-run it with each slot overridden until the
 * getter answers the override. A slot counts only when two different values both come back, so a
 * slot that merely happens to give the asked-for value is not taken.
 */
import type {Chainspec} from "@xchain/chainspec";
import {BlockExecutor, blockContextOf, type ExecutionChainView} from "@xchain/execution";
import type {BlockHeader} from "@xchain/primitives";
import type {StateReader, StateSource} from "@xchain/state";
import {bigIntToFixedBytes, bytesToHex, concatBytes, equalBytes, keccak256, utf8ToBytes} from "@xchain/utils";

const WORD = 32;
const ZERO_ADDRESS = new Uint8Array(20);
const UINT256_MAX = (1n << 256n) - 1n;

/** The call data of `signature` with address arguments (each left-padded to a word). */
export function addressCall(signature: string, ...addresses: Uint8Array[]): Uint8Array {
  const selector = keccak256(utf8ToBytes(signature)).subarray(0, 4);
  return concatBytes(selector, ...addresses.map((a) => concatBytes(new Uint8Array(WORD - a.length), a)));
}

/** Where and on what the getter runs: the state being edited, at the head. */
export interface SlotProbe {
  chainspec: Chainspec;
  /** The state the calls read (a `StateDatabase` over the node's store). */
  state: StateSource;
  /** The root of the state being edited. */
  root: Uint8Array;
  /** The head: the calls run in its block context, as eth_call at latest does. */
  head: BlockHeader;
  /** BLOCKHASH for the head's block context. */
  chain: ExecutionChainView;
}

/**
 * The slot of `token` that the getter `data` answers, or undefined when no slot it reads gives back
 * what is written there (a balance computed from shares, a token without code…).
 */
export async function findErc20Slot(
  probe: SlotProbe,
  token: Uint8Array,
  data: Uint8Array,
  value: bigint,
): Promise<Uint8Array | undefined> {
  const reads = new SlotRecorder(probe.state, token);
  const executor = new BlockExecutor({}, {chainspec: probe.chainspec, state: reads});
  const run = (slot?: Uint8Array, word?: Uint8Array) =>
    executor.call({
      block: blockContextOf(probe.head),
      chain: probe.chain,
      stateRoot: probe.root,
      from: ZERO_ADDRESS,
      to: token,
      data,
      gasLimit: probe.head.gasLimit,
      overrides: slot && word ? [{address: token, stateDiff: [[slot, word]]}] : undefined,
    });
  const first = await run();
  if (!first.status) return undefined;
  // A second value differing from the first: the slot must follow both.
  const other = value === UINT256_MAX ? value - 1n : value + 1n;
  for (const slot of reads.slots()) {
    if ((await answers(run, slot, value)) && (await answers(run, slot, other))) return slot;
  }
  return undefined;
}

/** Whether the getter answers exactly `value` (one ABI word) with `slot` set to it. */
async function answers(
  run: (slot: Uint8Array, word: Uint8Array) => ReturnType<BlockExecutor["call"]>,
  slot: Uint8Array,
  value: bigint,
): Promise<boolean> {
  const word = bigIntToFixedBytes(value, WORD);
  const result = await run(slot, word);
  return result.status && result.returnValue.length === WORD && equalBytes(result.returnValue, word);
}

/** A state source whose readers note the storage slots of one account that are read, in order. */
class SlotRecorder implements StateSource {
  private readonly read = new Map<string, Uint8Array>();

  constructor(
    private readonly base: StateSource,
    private readonly account: Uint8Array,
  ) {}

  slots(): Uint8Array[] {
    return [...this.read.values()];
  }

  openSession(...args: Parameters<StateSource["openSession"]>): ReturnType<StateSource["openSession"]> {
    return this.base.openSession(...args);
  }

  hasRoot(root: Uint8Array): Promise<boolean> {
    return this.base.hasRoot(root);
  }

  async reader(...args: Parameters<StateSource["reader"]>): Promise<StateReader> {
    const base = await this.base.reader(...args);
    return {
      root: base.root,
      getAccount: (address) => base.getAccount(address),
      getBalance: (address) => base.getBalance(address),
      getNonce: (address) => base.getNonce(address),
      getCode: (address) => base.getCode(address),
      getStorage: (address, slot) => {
        if (equalBytes(address, this.account)) this.read.set(bytesToHex(slot), Uint8Array.from(slot));
        return base.getStorage(address, slot);
      },
      accountProof: (address) => base.accountProof(address),
      storageProof: (address, slot) => base.storageProof(address, slot),
    };
  }
}
