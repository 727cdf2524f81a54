/**
 * A bootnode of another network id speaks none of our protocols: the status handshake cannot even
 * start, and the keeper warns that it is on another network, once however often it is redialled.
 */
import {afterEach, describe, expect, it} from "vitest";
import {startHost, stopAll, waitFor} from "../support/hosts.ts";
import {type LogLine, recordingLogger} from "../support/logger.ts";

afterEach(stopAll);

describe("bootnode warnings", () => {
  it("names a bootnode of another network id as on another network, once", async () => {
    const other = await startHost({networkId: 31});
    const bootnode = other.network.listenAddresses()[0] as string;
    const lines: LogLine[] = [];
    const a = await startHost({options: {bootnodes: [bootnode]}, logger: recordingLogger(lines)});
    const warnings = () => lines.filter((l) => l.level === "warn" && l.context.bootnode === bootnode);
    await waitFor(() => warnings().length > 0, "the warning");
    // Redialled meanwhile (each dial connects, then the handshake fails): still one warning.
    await waitFor(() => lines.filter((l) => l.message === "bootnode dial failed again").length >= 2, "two redials");
    expect(warnings()).toHaveLength(1);
    expect(warnings()[0]?.context).toMatchObject({cause: "wrong network"});
    expect(warnings()[0]?.message).toContain(
      "is on another network: it does not speak /xchain/7771/status/1 (a node of another network, or not an xchain node)",
    );
    expect(a.network.peers()).toEqual([]);
  });
});
