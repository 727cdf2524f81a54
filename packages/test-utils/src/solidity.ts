/** Compiles Solidity for tests with solc-js (the root's devDependency): standard JSON, evmVersion cancun, optimizer 200 runs. */
import {createRequire} from "node:module";
import {hexToBytes} from "@xchain/utils";
import type Solc from "solc";

let solc: typeof Solc | undefined;

// Loaded on first use: the compiler is megabytes of WebAssembly glue that most tests never need.
function loadSolc(): typeof Solc {
  solc ??= createRequire(import.meta.url)("solc") as typeof Solc;
  return solc;
}

/** A compiled contract: creation code, the 4-byte selector of each function signature and the JSON ABI. */
export interface CompiledContract {
  bytecode: Uint8Array;
  selectors: Record<string, Uint8Array>;
  abi: readonly Record<string, unknown>[];
}

interface SolcOutput {
  errors?: {severity: string; formattedMessage: string}[];
  contracts: Record<
    string,
    Record<
      string,
      {abi: Record<string, unknown>[]; evm: {bytecode: {object: string}; methodIdentifiers: Record<string, string>}}
    >
  >;
}

/** Compiles `source` (one file) and returns each contract by name; throws on compilation errors. */
export function compileSolidity(source: string): Record<string, CompiledContract> {
  const input = {
    language: "Solidity",
    sources: {"main.sol": {content: source}},
    settings: {
      evmVersion: "cancun",
      optimizer: {enabled: true, runs: 200},
      outputSelection: {"*": {"*": ["abi", "evm.bytecode.object", "evm.methodIdentifiers"]}},
    },
  };
  const output = JSON.parse(loadSolc().compile(JSON.stringify(input))) as SolcOutput;
  const errors = (output.errors ?? []).filter((e) => e.severity === "error");
  if (errors.length > 0) throw new Error(errors.map((e) => e.formattedMessage).join("\n"));
  const contracts: Record<string, CompiledContract> = {};
  for (const [name, contract] of Object.entries(output.contracts["main.sol"] ?? {})) {
    const selectors: Record<string, Uint8Array> = {};
    for (const [signature, selector] of Object.entries(contract.evm.methodIdentifiers)) {
      selectors[signature] = hexToBytes(selector);
    }
    contracts[name] = {bytecode: hexToBytes(contract.evm.bytecode.object), selectors, abi: contract.abi};
  }
  return contracts;
}
