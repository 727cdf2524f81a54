/**
 * Guard on the one private @ethereumjs field the gas profile reads: gas/create.ts
 * (`failOnDeletedTarget`, the RSKIP-125 CREATE onto an address deleted in the same block) bumps the
 * creator's nonce through `runState.interpreter._evm.journal`, which @ethereumjs/evm marks private
 * only by its underscore. An upgrade that renames it, drops it or points it elsewhere must fail
 * here, by name, before it silently changes that CREATE's outcome and gas.
 */
import {readFileSync} from "node:fs";
import {createRequire} from "node:module";
import {dirname, join} from "node:path";
import {createCustomCommon, Hardfork, Mainnet} from "@ethereumjs/common";
import {createEVM, type EVM} from "@ethereumjs/evm";
import {Account, Address} from "@ethereumjs/util";
import {describe, expect, it} from "vitest";

/** The installed @ethereumjs/evm's version (its package.json is not in its `exports`). */
function installedEvmVersion(): string {
  let dir = dirname(createRequire(import.meta.url).resolve("@ethereumjs/evm"));
  for (;;) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as {name?: string; version: string};
      if (pkg.name === "@ethereumjs/evm") return pkg.version;
    } catch {
      // no package.json at this level: keep going up
    }
    const parent = dirname(dir);
    if (parent === dir) return "(version not found)";
    dir = parent;
  }
}

const version = installedEvmVersion();
const FIELD = "Interpreter._evm";
const why = (what: string) =>
  `@ethereumjs/evm ${version}: ${FIELD} ${what}; packages/execution/src/gas/create.ts writes the creator's nonce ` +
  "through runState.interpreter._evm.journal — adapt it before upgrading, or RSKIP-125 CREATE gas changes";

// An opcode unassigned in shanghai, to reach the interpreter from inside a running frame.
const PROBE = 0x0c;
const TOUCHED = new Address(new Uint8Array(20).fill(0x42));

describe("the private @ethereumjs field gas/create.ts reads", () => {
  it(`${FIELD} is the running EVM, and its journal holds the frame's writes`, async () => {
    const common = createCustomCommon({chainId: 33}, Mainnet, {hardfork: Hardfork.Shanghai});
    let seen: unknown;
    const evm: EVM = await createEVM({
      common,
      customOpcodes: [
        {
          opcode: PROBE,
          opcodeName: "PROBE",
          baseFee: 0,
          logicFunction: async (runState) => {
            // Read untyped, so that a renamed field reaches the named expectations below.
            seen = (runState.interpreter as unknown as Record<string, unknown>)._evm;
            const journal = (seen as Partial<EVM> | undefined)?.journal;
            // What create.ts does with it: a write into the running call's journal.
            if (typeof journal?.putAccount === "function") await journal.putAccount(TOUCHED, new Account(7n, 0n));
          },
        },
      ],
    });
    // Initcode PROBE, STOP: the frame runs the probe and succeeds, so its journal is committed.
    const result = await evm.runCall({data: Uint8Array.of(PROBE, 0x00), gasLimit: 100_000n});

    expect(result.execResult.exceptionError, why("could not be reached from a running frame")).toBeUndefined();
    expect(seen, why("is missing or renamed")).toBeDefined();
    expect(seen, why("is no longer the EVM running the frame")).toBe(evm);
    expect(typeof (seen as EVM | undefined)?.journal?.putAccount, why("has no journal.putAccount")).toBe("function");
    const account = await evm.stateManager.getAccount(TOUCHED);
    expect(account?.nonce, why("journal writes no longer land in the frame's state")).toBe(7n);
  });
});
