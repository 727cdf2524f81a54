/** xchain's protocol ids and gossip topics of one network (docs/p2p.md). */

export interface ProtocolIds {
  status: string;
  headers: string;
  bodies: string;
  /** Pending transactions pushed to a new peer (`wire/transactions.ts`). */
  pooledTransactions: string;
  blocksTopic: string;
  transactionsTopic: string;
}

export function protocolIds(networkId: number): ProtocolIds {
  const prefix = `/xchain/${networkId}`;
  return {
    status: `${prefix}/status/1`,
    headers: `${prefix}/headers/1`,
    bodies: `${prefix}/bodies/1`,
    pooledTransactions: `${prefix}/pooledtxs/1`,
    blocksTopic: `${prefix}/blocks/1`,
    transactionsTopic: `${prefix}/txs/1`,
  };
}
