/** The start-up check of the database against the data directory's record, and the record kept from then on. */
import type {Chain} from "@xchain/chain";
import {bytesToPrefixedHex, hexToBytes, type Logger} from "@xchain/utils";
import {NodeStartError, NodeStartErrorCode} from "../errors.ts";
import {type DataDirRecord, HeadRecorder, RECORD_FILE, recordedHead} from "./record.ts";

/** What the record says of the chain besides its head. */
export interface ChainIdentity {
  network: string;
  chainId: number;
}

/**
 * Refuses a database that lost the head `record` names (DATABASE_REWOUND); the blocks a node itself
 * takes off the chain (`evm_revert`, a reorganization) stay stored, so only lost data fails this.
 * Then starts keeping the record with the chain's head.
 */
export async function keepHeadRecord(
  dataDir: string,
  record: DataDirRecord | undefined,
  chain: Chain,
  identity: ChainIdentity,
  logger: Logger,
): Promise<HeadRecorder> {
  const head = chain.head();
  if (record && !(await chain.getHeader(hexToBytes(record.head.hash)))) {
    throw new NodeStartError(
      {code: NodeStartErrorCode.DATABASE_REWOUND, dataDir, recorded: record.head.number, head: head.number},
      `the database of ${dataDir} lost blocks: its head is block ${head.number}, but ${RECORD_FILE} records ` +
        `block ${record.head.number} (${record.head.hash}), which it no longer holds (a damaged or truncated ` +
        "write-ahead log, or a database restored from an older back-up). Run `xchain db repair --datadir " +
        `${dataDir}\` to go on from what it holds (a node with peers then syncs the rest again; docs/operations.md §6)`,
    );
  }
  const genesis = await chain.getHeaderByNumber(0);
  const current: DataDirRecord = {
    format: 1,
    network: identity.network,
    chainId: identity.chainId,
    genesis: bytesToPrefixedHex(genesis ? genesis.hash() : new Uint8Array(32)),
    head: recordedHead(head),
  };
  const recorder = new HeadRecorder(
    {dataDir, record: current},
    {onError: (e) => logger.warn({err: e}, `cannot write ${RECORD_FILE}: ${(e as Error).message}`)},
  );
  recorder.update(head);
  return recorder;
}
