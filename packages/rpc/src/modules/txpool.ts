/**
 * The `txpool` namespace with rskj's shapes (docs/protocol/json-rpc.md §4): counts as JSON numbers; content and inspect
 * nested by sender (hex without 0x) and nonce (decimal); gasPrice and value in content as the hex of
 * Java's signed bytes (`0x00` for zero); inspect lines `<to>: <value> wei + <gas> x <gasPrice> gas`
 * in decimal, a creation's `to` written `contract creation`.
 */
import type {Transaction} from "@xchain/primitives";
import type {TxPoolContent} from "@xchain/txpool";
import {bigIntToSignedBytes, toData, toQuantity} from "@xchain/utils";
import {ZERO_HASH} from "../format/transaction.ts";
import type {RpcMethod} from "../jsonrpc/registry.ts";
import type {ModuleDeps} from "../moduleDeps.ts";
import {method} from "../params/method.ts";

type Nested<T> = Record<string, Record<string, T>>;

function nest<T>(bySender: TxPoolContent["pending"], format: (tx: Transaction) => T): Nested<T> {
  const out: Nested<T> = {};
  for (const [sender, byNonce] of bySender) {
    const entries: Record<string, T> = {};
    for (const [nonce, tx] of byNonce) entries[nonce.toString(10)] = format(tx);
    out[sender] = entries;
  }
  return out;
}

function contentEntry(tx: Transaction): object[] {
  return [
    {
      blockHash: ZERO_HASH,
      blockNumber: null,
      transactionIndex: null,
      from: toData(tx.sender()),
      gas: toQuantity(tx.gasLimit),
      gasPrice: toData(bigIntToSignedBytes(tx.gasPrice)),
      hash: toData(tx.hash()),
      input: toData(tx.data),
      nonce: toQuantity(tx.nonce),
      to: tx.to ? toData(tx.to) : null,
      value: toData(bigIntToSignedBytes(tx.value)),
    },
  ];
}

function inspectEntry(tx: Transaction): string[] {
  const to = tx.to ? toData(tx.to) : "contract creation";
  return [`${to}: ${tx.value} wei + ${tx.gasLimit} x ${tx.gasPrice} gas`];
}

/** txpool_* methods. */
export function txpoolMethods({txpool}: Pick<ModuleDeps, "txpool">): Record<string, RpcMethod> {
  return {
    /** Handler for `txpool_status` */
    status: method([], () => {
      const {pending, queued} = txpool.status();
      return {pending, queued};
    }),
    /** Handler for `txpool_content` */
    content: method([], () => {
      const content = txpool.content();
      return {pending: nest(content.pending, contentEntry), queued: nest(content.queued, contentEntry)};
    }),
    /** Handler for `txpool_inspect` */
    inspect: method([], () => {
      const content = txpool.content();
      return {pending: nest(content.pending, inspectEntry), queued: nest(content.queued, inspectEntry)};
    }),
  };
}
