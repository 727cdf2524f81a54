// API keys for a gateway node's tests: `xchain keys add` run on its data directory.
import {expect} from "vitest";
import {runXchain} from "./xchainProcess.ts";

/** `xchain keys add --datadir dataDir …args`: the printed secret and id. */
export async function addGatewayKey(dataDir: string, args: string[]): Promise<{id: string; secret: string}> {
  const exit = await runXchain(["keys", "add", "--datadir", dataDir, ...args]);
  expect(exit.code, exit.stderr).toBe(0);
  const id = /^id\s+(\S+)$/m.exec(exit.stdout)?.[1] as string;
  const secret = /^key\s+([0-9a-f]{64})$/m.exec(exit.stdout)?.[1] as string;
  return {id, secret};
}
