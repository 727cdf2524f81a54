/**
 * The execution package's options. Block execution's rules are the chainspec's; the one option says
 * what a message to an RSK native contract does (docs/protocol/gas.md §6.2, docs/forking.md §6).
 */

/**
 * `inert`: the native contracts are existing accounts without code, so a message to one succeeds with
 * empty output (xchain's own chains, which no native contract has ever run on). `unavailable`: such a
 * message stops with `NativeContractUnavailableError` (fork mode, where the upstream's contracts hold real
 * state that an empty success would silently contradict).
 */
export type NativeContractsMode = "inert" | "unavailable";

export interface BlockExecutorOptions {
  nativeContracts: NativeContractsMode;
}

export const defaultBlockExecutorOptions: BlockExecutorOptions = {nativeContracts: "inert"};
