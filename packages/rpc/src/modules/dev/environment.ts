/**
 * The block environment (docs/rpc.md §4.10 "Environment"): coinbase, minimum gas price, block gas limit, the
 * transaction log's switch, anvil's `nodeInfo` and `metadata` with xchain's values, and the settings Rootstock has
 * no counterpart for, refused in plain words.
 */

import type {Chainspec, Rskip} from "@xchain/chainspec";
import {toData, toQuantity} from "@xchain/utils";
import {RpcError} from "../../jsonrpc/errors.ts";
import {dataSchema, type JsonSchema, QUANTITY_SCHEMA} from "../../jsonrpc/jsonSchema.ts";
import type {RpcMethod} from "../../jsonrpc/registry.ts";
import type {ModuleDeps} from "../../moduleDeps.ts";
import {bool} from "../../params/codec.ts";
import {address, nonNegativeBigInt} from "../../params/hex.ts";
import {method, param} from "../../params/method.ts";
import {suggestedGasPrice} from "../eth/chainInfo.ts";
import {requireMiner} from "../unavailable.ts";
import {answeredClientVersion, clientVersionNumber} from "../web3.ts";

const NO_BASE_FEE =
  "Rootstock has no EIP-1559 base fee: blocks carry a minimumGasPrice instead (anvil_setMinGasPrice moves it)";
const NO_PREVRANDAO =
  "Rootstock has no prevrandao: it is merge-mined proof of work, and DIFFICULTY (0x44) reads the block's difficulty";
const FIXED_CHAIN_ID = "the chain id is fixed by the network (its chainspec), and signed transactions carry it";

/** The environment group's methods (also evm_setBlockGasLimit, evm.ts). */
export function environmentMethods({
  miner,
  chain,
  chainspec,
  clientVersion,
  logging,
  options,
  forkControls,
}: Pick<
  ModuleDeps,
  "miner" | "chain" | "chainspec" | "clientVersion" | "options" | "logging" | "forkControls"
>): Record<string, RpcMethod> {
  const environment = () => requireMiner(miner).devControls().environment;
  return {
    /** Handler for `anvil_setCoinbase`: the next blocks' coinbase (and eth_coinbase) */
    setCoinbase: method([param("address", address)], (coinbase) => {
      environment().setCoinbase(coinbase);
      return null;
    }),
    /** Handler for `anvil_setMinGasPrice`: the minimumGasPrice the blocks move toward */
    setMinGasPrice: method([param("gasPrice", nonNegativeBigInt)], (wei) => {
      environment().setMinGasPrice(wei);
      return null;
    }),
    /** Handler for `anvil_setBlockGasLimit` (evm_setBlockGasLimit): true, as anvil and Hardhat answer */
    setBlockGasLimit: method([param("gasLimit", nonNegativeBigInt)], (gasLimit) => {
      environment().setBlockGasLimit(gasLimit);
      return true;
    }),
    /** Handler for `anvil_setLoggingEnabled`: the node's transaction log (a node without one has nothing to switch) */
    setLoggingEnabled: method([param("enabled", bool)], (enabled) => {
      environment(); // the dev controls' check
      if (logging) logging.enabled = enabled;
      return null;
    }),
    /** Handler for `anvil_nodeInfo`: anvil's shape with xchain's values */
    nodeInfo: method([], () => {
      const settings = environment().settings();
      const head = chain.head();
      const fork = forkControls?.info();
      return {
        currentBlockNumber: toQuantity(head.number),
        currentBlockTimestamp: head.header.timestamp,
        currentBlockHash: toData(head.hash),
        hardFork: latestActivation(chainspec, head.number + 1),
        transactionOrder: "fees",
        environment: {
          baseFee: toQuantity(0n),
          chainId: chainspec.params.chainId,
          gasLimit: toQuantity(settings.targetGasLimit),
          gasPrice: toQuantity(suggestedGasPrice(head.header.minimumGasPrice)),
        },
        // anvil's fork configuration: the upstream's URL (redacted), F, the first retry's delay in ms.
        forkConfig: fork
          ? {forkUrl: fork.url, forkBlockNumber: fork.blockNumber, forkRetryBackoff: fork.retryBackoffMs}
          : {forkUrl: null, forkBlockNumber: null, forkRetryBackoff: null},
        network: chainspec.params.name,
      };
    }),
    /** Handler for `anvil_metadata` / `hardhat_metadata` */
    metadata: method([], () => {
      const {instanceId} = environment().settings();
      const head = chain.head();
      const fork = forkControls?.info();
      return {
        // What web3_clientVersion answers (clients compare them); the semver is the node's own.
        clientVersion: answeredClientVersion({clientVersion, options}),
        clientSemver: clientVersionNumber(clientVersion),
        clientCommitSha: null,
        chainId: chainspec.params.chainId,
        instanceId: toData(instanceId),
        latestBlockNumber: head.number,
        latestBlockHash: toData(head.hash),
        // anvil's and Hardhat's shape (hardhat-network-helpers and viem read it): the upstream's chain id, F and H.
        forkedNetwork: fork
          ? {
              chainId: Number(fork.upstreamChainId),
              forkBlockNumber: fork.blockNumber,
              forkBlockHash: toData(fork.blockHash),
            }
          : null,
      };
    }),
    /** Handler for `anvil_setNextBlockBaseFeePerGas`: refused */
    setNextBlockBaseFeePerGas: refused(NO_BASE_FEE, QUANTITY_SCHEMA),
    /** Handler for `hardhat_setPrevRandao`: refused */
    setPrevRandao: refused(NO_PREVRANDAO, dataSchema(32)),
    /** Handler for `anvil_setNextBlockPrevRandao`: refused */
    setNextBlockPrevRandao: refused(NO_PREVRANDAO, dataSchema(32)),
    /** Handler for `anvil_setChainId`: refused */
    setChainId: refused(FIXED_CHAIN_ID, QUANTITY_SCHEMA),
  };
}

/** A control Rootstock has no counterpart for: -32602 with the reason, whatever the parameters (`schema`: what anvil takes). */
function refused(reason: string, schema: JsonSchema): RpcMethod {
  return {
    params: [{name: "value", required: true, schema}],
    invoke() {
      throw RpcError.invalidParams(reason);
    },
  };
}

/** anvil's `hardFork`: the RSKIP activated last at `height` (the latest listed among those activated together). */
function latestActivation({params}: Chainspec, height: number): string {
  let latest: [Rskip, number] | undefined;
  for (const [rskip, at] of Object.entries(params.activation) as [Rskip, number][]) {
    if (at >= 0 && at <= height && (!latest || at >= latest[1])) latest = [rskip, at];
  }
  return latest?.[0] ?? "none";
}
