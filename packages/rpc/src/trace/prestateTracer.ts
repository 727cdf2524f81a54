/**
 * geth's prestateTracer (docs/protocol/debug-traces.md §5): the accounts a transaction touched,
 * as they were before it; with `diffMode`, what changed, before and after. Two passes over the
 * block: the first records what each transaction touches (and, in diff mode, the state after it),
 * the second reads the touched accounts and slots from the state just before each transaction.
 */
import {
  type ExecutionTracer,
  type FrameEnd,
  type FrameStart,
  REMASC_STORAGE_KEYS,
  type RemascPayment,
  type SelfDestructEvent,
  type TracedTransaction,
  type TraceStateView,
  type TraceStep,
  type TransactionOutcome,
} from "@xchain/execution";
import {REMASC_ADDRESS} from "@xchain/primitives";
import {bigIntToFixedBytes, bytesToPrefixedHex, hexToBytes, toData, toQuantity} from "@xchain/utils";

/**
 * An account in geth's prestate shape: nonce and code omitted when zero or empty, storage when
 * empty; in a diff's `post`, every field that did not change is omitted.
 */
export interface PrestateAccount {
  balance?: string;
  nonce?: number;
  code?: string;
  storage?: Record<string, string>;
}

/** Addresses (0x hex) to accounts. */
export type Prestate = Record<string, PrestateAccount>;

/** What a transaction touched: addresses, and slots by address (all 0x hex, slots 32 bytes). */
type Touched = Map<string, Set<string>>;

/** Opcodes whose top stack word is a slot of the running account. */
const SLOT_OPCODES: ReadonlySet<number> = new Set([0x54, 0x55]);
/** Opcodes whose top stack word is an account they look at: BALANCE, EXTCODESIZE, EXTCODECOPY, EXTCODEHASH. */
const ACCOUNT_OPCODES: ReadonlySet<number> = new Set([0x31, 0x3b, 0x3c, 0x3f]);

const ADDRESS_MASK = (1n << 160n) - 1n;

/** Pass one: what each transaction touches, and its state after (for diff mode). */
export class TouchRecorder implements ExecutionTracer {
  readonly touched = new Map<number, Touched>();
  readonly after = new Map<number, Prestate>();
  /** The traced transactions, by index in the block. */
  readonly transactions: TracedTransaction[] = [];
  private current: Touched = new Map();

  constructor(private readonly keepAfter: boolean) {}

  transactionStart(tx: TracedTransaction): void {
    this.current = new Map();
    this.touch(tx.transaction.sender());
    if (tx.transaction.to) this.touch(tx.transaction.to);
  }

  frameStart(frame: FrameStart): void {
    this.touch(frame.from);
    if (frame.to) this.touch(frame.to);
  }

  frameEnd(frame: FrameEnd): void {
    if (frame.createdAddress) this.touch(frame.createdAddress);
  }

  selfDestruct(event: SelfDestructEvent): void {
    this.touch(event.address);
    this.touch(event.beneficiary);
  }

  step(step: TraceStep): void {
    const top = step.stack.at(-1);
    if (top === undefined) return;
    if (SLOT_OPCODES.has(step.opcode)) this.touch(step.address, bigIntToFixedBytes(top, 32));
    else if (ACCOUNT_OPCODES.has(step.opcode)) this.touch(bigIntToFixedBytes(top & ADDRESS_MASK, 20));
  }

  /** REMASC's storage (the slots it may write) and every account it paid. */
  remasc(_tx: TracedTransaction, payments: readonly RemascPayment[]): void {
    this.touch(REMASC_ADDRESS);
    for (const slot of Object.values(REMASC_STORAGE_KEYS)) this.touch(REMASC_ADDRESS, slot);
    for (const payment of payments) this.touch(payment.to);
  }

  async transactionEnd(tx: TracedTransaction, outcome: TransactionOutcome, state: TraceStateView): Promise<void> {
    // The fee goes to REMASC (docs/protocol/fees.md).
    if (outcome.fee > 0n) this.touch(REMASC_ADDRESS);
    this.touched.set(tx.index, this.current);
    this.transactions[tx.index] = tx;
    if (this.keepAfter) this.after.set(tx.index, await readState(state, this.current));
  }

  private touch(address: Uint8Array, slot?: Uint8Array): void {
    const key = bytesToPrefixedHex(address);
    let slots = this.current.get(key);
    if (!slots) {
      slots = new Set();
      this.current.set(key, slots);
    }
    if (slot) slots.add(bytesToPrefixedHex(slot));
  }
}

/** Pass two: the touched accounts and slots as they are just before each transaction. */
export class PrestateReader implements ExecutionTracer {
  readonly before = new Map<number, Prestate>();

  constructor(private readonly touched: ReadonlyMap<number, Touched>) {}

  async transactionStart(tx: TracedTransaction, state: TraceStateView): Promise<void> {
    this.before.set(tx.index, await readState(state, this.touched.get(tx.index) ?? new Map()));
  }
}

/** The accounts of `touched` in `state`; an account that does not exist is `{balance: "0x0"}`, marked missing. */
async function readState(state: TraceStateView, touched: Touched): Promise<Prestate> {
  const result: Prestate = {};
  for (const [address, slots] of touched) {
    const account = await state.account(hexToBytes(address));
    const entry: PrestateAccount = {balance: toQuantity(account?.balance ?? 0n)};
    if (account && account.nonce > 0n) entry.nonce = Number(account.nonce);
    if (account && account.code.length > 0) entry.code = toData(account.code);
    if (slots.size > 0) {
      const storage: Record<string, string> = {};
      for (const slot of [...slots].sort()) {
        const value = account ? await state.storage(hexToBytes(address), hexToBytes(slot)) : new Uint8Array();
        storage[slot] = toData(leftPad32(value));
      }
      entry.storage = storage;
    }
    if (!account) MISSING.add(entry);
    result[address] = entry;
  }
  return result;
}

/** Entries read for accounts that did not exist (diff mode leaves them out of `pre`, or `post`). */
const MISSING = new WeakSet<PrestateAccount>();

const ZERO_WORD = toData(new Uint8Array(32));

function leftPad32(value: Uint8Array): Uint8Array {
  const word = new Uint8Array(32);
  word.set(value.subarray(Math.max(0, value.length - 32)), 32 - Math.min(32, value.length));
  return word;
}

/**
 * geth's diff mode: an account unchanged by the transaction is in neither; `pre` has a changed
 * account as it was (its storage limited to the slots that changed), `post` only the fields that
 * changed, and a slot set to zero only in `pre`. An account created by the transaction is not in
 * `pre`; one deleted by it is not in `post`.
 */
export function prestateDiff(before: Prestate, after: Prestate): {post: Prestate; pre: Prestate} {
  const pre: Prestate = {};
  const post: Prestate = {};
  for (const [address, old] of Object.entries(before)) {
    const now = after[address] as PrestateAccount;
    const existed = !MISSING.has(old);
    const exists = !MISSING.has(now);
    if (!existed && !exists) continue;
    const changedSlots = Object.keys(old.storage ?? {}).filter((slot) => old.storage?.[slot] !== now.storage?.[slot]);
    const changed: PrestateAccount = {};
    let modified = !existed || !exists || changedSlots.length > 0;
    if (old.balance !== now.balance || !existed) {
      modified = true;
      changed.balance = now.balance as string;
    }
    if (old.nonce !== now.nonce) {
      modified = true;
      if (now.nonce !== undefined) changed.nonce = now.nonce;
    }
    if (old.code !== now.code) {
      modified = true;
      if (now.code !== undefined) changed.code = now.code;
    }
    if (!modified) continue;
    if (existed) {
      const kept: PrestateAccount = {...old};
      delete kept.storage;
      if (changedSlots.length > 0)
        kept.storage = Object.fromEntries(changedSlots.map((s) => [s, old.storage?.[s] as string]));
      pre[address] = kept;
    }
    if (exists) {
      const written = changedSlots.filter((slot) => now.storage?.[slot] !== ZERO_WORD);
      if (written.length > 0) changed.storage = Object.fromEntries(written.map((s) => [s, now.storage?.[s] as string]));
      post[address] = changed;
    }
  }
  return {post, pre};
}
