/** Compiles Solidity with solc-js (standard JSON, evmVersion cancun, optimizer 200 runs). */
import {hexToBytes} from "@xchain/utils";
import solc from "solc";

/** A compiled contract: creation code and the 4-byte selectors of its functions. */
export interface Compiled {
  bytecode: Uint8Array;
  selectors: Record<string, Uint8Array>;
}

interface SolcOutput {
  errors?: {severity: string; formattedMessage: string}[];
  contracts: Record<
    string,
    Record<string, {evm: {bytecode: {object: string}; methodIdentifiers: Record<string, string>}}>
  >;
}

/** Compiles `source` (one file) and returns each contract by name. */
export function compile(source: string): Record<string, Compiled> {
  const input = {
    language: "Solidity",
    sources: {"main.sol": {content: source}},
    settings: {
      evmVersion: "cancun",
      optimizer: {enabled: true, runs: 200},
      outputSelection: {"*": {"*": ["evm.bytecode.object", "evm.methodIdentifiers"]}},
    },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as SolcOutput;
  const errors = (output.errors ?? []).filter((e) => e.severity === "error");
  if (errors.length > 0) throw new Error(errors.map((e) => e.formattedMessage).join("\n"));
  const contracts: Record<string, Compiled> = {};
  for (const [name, contract] of Object.entries(output.contracts["main.sol"] ?? {})) {
    const selectors: Record<string, Uint8Array> = {};
    for (const [signature, selector] of Object.entries(contract.evm.methodIdentifiers)) {
      selectors[signature] = hexToBytes(selector);
    }
    contracts[name] = {bytecode: hexToBytes(contract.evm.bytecode.object), selectors};
  }
  return contracts;
}
