/** Risky configurations: which are found, what accepts them, and how start-up refuses or warns. */

import {isLoopbackHost} from "@xchain/utils";
import {describe, expect, it, vi} from "vitest";
import {ConfigError, ConfigErrorCode} from "../../src/config/errors.ts";
import {resolveNodeOptions} from "../../src/config/load.ts";
import {checkRiskyConfigurations, RiskyConfigurationCode, riskyConfigurations} from "../../src/config/risks.ts";

/** The options of these flags, resolved as `xchain start` does. */
function optionsOf(flags: Record<string, string>) {
  return resolveNodeOptions({flags: new Map(Object.entries(flags))});
}

async function codesOf(flags: Record<string, string>): Promise<RiskyConfigurationCode[]> {
  return riskyConfigurations(await optionsOf(flags)).map((r) => r.code);
}

describe("isLoopbackHost", () => {
  it("knows loopback from what is beyond it", () => {
    for (const host of ["127.0.0.1", "127.1.2.3", "::1", "[::1]", "localhost", "LocalHost"]) {
      expect(isLoopbackHost(host), host).toBe(true);
    }
    for (const host of ["0.0.0.0", "::", "[::]", "10.0.0.5", "192.168.1.2", "node.example", "fe80::1"]) {
      expect(isLoopbackHost(host), host).toBe(false);
    }
  });
});

/** HTTP on every interface, with the wallet, evm and personal off. */
const PUBLIC_WITHOUT_DEV_CONTROLS = {
  "rpc.http.host": "0.0.0.0",
  "wallet.enabled": "false",
  "wallet.keystore": "false",
  "rpc.modules.evm.enabled": "false",
  "rpc.modules.anvil.enabled": "false",
  "rpc.modules.hardhat.enabled": "false",
  "rpc.modules.personal.enabled": "false",
  "rpc.modules.admin.enabled": "false",
};

describe("riskyConfigurations", () => {
  it("finds none in the defaults of any network", async () => {
    for (const network of ["regtest", "testnet", "mainnet"]) expect(await codesOf({network}), network).toEqual([]);
  });

  it("finds the dev wallet, evm_* and personal_* on an HTTP or WS listener beyond loopback", async () => {
    const [http] = riskyConfigurations(await optionsOf({"rpc.http.host": "0.0.0.0"}));
    expect(http).toEqual({
      code: RiskyConfigurationCode.DEV_CONTROLS_ON_PUBLIC_RPC,
      risk:
        "the dev wallet (wallet.enabled) and the keystore (wallet.keystore) and evm_* (rpc.modules.evm, " +
        "miner.devControls) and anvil_* (rpc.modules.anvil, miner.devControls) and hardhat_* " +
        "(rpc.modules.hardhat, miner.devControls) and personal_* " +
        '(rpc.modules.personal) and admin_* (rpc.modules.admin) served on rpc.http.host = "0.0.0.0", beyond loopback, to anyone who can reach it ' +
        "(there are no API keys)",
      unsafeKey: "unsafe.allowDevControlsOnPublicRpc",
      accepted: false,
    });
    expect(await codesOf({"rpc.ws.host": "::"})).toEqual([RiskyConfigurationCode.DEV_CONTROLS_ON_PUBLIC_RPC]);
    expect(await codesOf({"rpc.ws.host": "10.0.0.5"})).toEqual([RiskyConfigurationCode.DEV_CONTROLS_ON_PUBLIC_RPC]);
    // The wallet alone is enough.
    expect(
      await codesOf({
        "rpc.http.host": "0.0.0.0",
        "rpc.modules.evm.enabled": "false",
        "rpc.modules.personal.enabled": "false",
      }),
    ).toEqual([RiskyConfigurationCode.DEV_CONTROLS_ON_PUBLIC_RPC]);
    // admin_* alone too: admin_addPeer makes the node dial any address a stranger gives it.
    expect(await codesOf({...PUBLIC_WITHOUT_DEV_CONTROLS, "rpc.modules.admin.enabled": "true"})).toEqual([
      RiskyConfigurationCode.DEV_CONTROLS_ON_PUBLIC_RPC,
    ]);
    // The keystore alone too (docs/protocol/keystore.md §4).
    expect(await codesOf({...PUBLIC_WITHOUT_DEV_CONTROLS, "wallet.keystore": "true"})).toEqual([
      RiskyConfigurationCode.DEV_CONTROLS_ON_PUBLIC_RPC,
    ]);
    // A single method switched on counts as its namespace.
    expect(await codesOf({...PUBLIC_WITHOUT_DEV_CONTROLS, "rpc.methods.enabled": "personal_sign"})).toEqual([
      RiskyConfigurationCode.DEV_CONTROLS_ON_PUBLIC_RPC,
    ]);
  });

  it("leaves a public listener alone without dev controls, and a disabled listener", async () => {
    expect(await codesOf({network: "mainnet", "rpc.http.host": "0.0.0.0", "rpc.ws.host": "::"})).toEqual([]);
    expect(await codesOf(PUBLIC_WITHOUT_DEV_CONTROLS)).toEqual([]);
    expect(await codesOf({"rpc.http.host": "0.0.0.0", "rpc.http.enabled": "false"})).toEqual([]);
  });

  it('finds the dev wallet with "*" in rpc.corsOrigins, rpc.http.vhosts or rpc.ws.origins', async () => {
    const [cors] = riskyConfigurations(await optionsOf({"rpc.corsOrigins": "*"}));
    expect(cors?.code).toBe(RiskyConfigurationCode.WALLET_WITH_ANY_ORIGIN);
    expect(cors?.risk).toContain(
      'the dev wallet (wallet.enabled) and the keystore (wallet.keystore) with rpc.corsOrigins = ["*"]',
    );
    expect(cors?.unsafeKey).toBe("unsafe.allowWalletWithAnyOrigin");
    expect(await codesOf({"rpc.http.vhosts": "*"})).toEqual([RiskyConfigurationCode.WALLET_WITH_ANY_ORIGIN]);
    expect(await codesOf({"rpc.ws.origins": "*"})).toEqual([RiskyConfigurationCode.WALLET_WITH_ANY_ORIGIN]);
    expect(await codesOf({"rpc.corsOrigins": "https://app.example"})).toEqual([]);
    expect(await codesOf({"rpc.corsOrigins": "*", "wallet.enabled": "false", "wallet.keystore": "false"})).toEqual([]);
    expect(await codesOf({"rpc.corsOrigins": "*", "wallet.enabled": "false"})).toEqual([
      RiskyConfigurationCode.WALLET_WITH_ANY_ORIGIN,
    ]);
    expect(await codesOf({"rpc.ws.origins": "*", "rpc.ws.enabled": "false"})).toEqual([]);
  });

  it("finds evm_* and personal_* on mainnet and testnet", async () => {
    const [evm] = riskyConfigurations(
      await optionsOf({network: "mainnet", "rpc.modules.evm.enabled": "true", "miner.devControls": "true"}),
    );
    expect(evm).toMatchObject({
      code: RiskyConfigurationCode.DEV_CONTROLS_ON_PUBLIC_NETWORK,
      risk: "evm_* (rpc.modules.evm, miner.devControls) on mainnet: development controls on a public network",
      unsafeKey: "unsafe.allowDevControlsOnPublicNetwork",
    });
    expect(await codesOf({network: "testnet", "rpc.modules.personal.enabled": "true"})).toEqual([
      RiskyConfigurationCode.DEV_CONTROLS_ON_PUBLIC_NETWORK,
    ]);
    const [anvil] = riskyConfigurations(
      await optionsOf({network: "testnet", "rpc.modules.anvil.enabled": "true", "miner.devControls": "true"}),
    );
    expect(anvil?.risk).toBe(
      "anvil_* (rpc.modules.anvil, miner.devControls) on testnet: development controls on a public network",
    );
    // evm_* answer nothing but refusals while the miner's dev controls are off.
    expect(await codesOf({network: "testnet", "rpc.modules.evm.enabled": "true"})).toEqual([]);
    // eth_sendUnsignedTransaction switched on alone counts as anvil's.
    const [unsigned] = riskyConfigurations(
      await optionsOf({
        network: "mainnet",
        "rpc.methods.enabled": "eth_sendUnsignedTransaction",
        "miner.devControls": "true",
      }),
    );
    expect(unsigned?.code).toBe(RiskyConfigurationCode.DEV_CONTROLS_ON_PUBLIC_NETWORK);
  });

  it("marks a risk accepted by its unsafe key", async () => {
    const risks = riskyConfigurations(
      await optionsOf({
        "rpc.http.host": "0.0.0.0",
        "rpc.corsOrigins": "*",
        "unsafe.allowDevControlsOnPublicRpc": "true",
      }),
    );
    expect(risks.map((r) => [r.code, r.accepted])).toEqual([
      [RiskyConfigurationCode.DEV_CONTROLS_ON_PUBLIC_RPC, true],
      [RiskyConfigurationCode.WALLET_WITH_ANY_ORIGIN, false],
    ]);
  });
});

describe("checkRiskyConfigurations", () => {
  const logger = () => {
    const log = {debug: vi.fn(), info: vi.fn(), warn: vi.fn(), error: vi.fn(), child: () => log};
    return log;
  };

  it("refuses a risk not accepted, naming it and the key that accepts it", async () => {
    const log = logger();
    const options = await optionsOf({network: "mainnet", "rpc.modules.personal.enabled": "true"});
    const error = (() => {
      try {
        checkRiskyConfigurations(options, log);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).type).toEqual({
      code: ConfigErrorCode.RISKY,
      key: "unsafe.allowDevControlsOnPublicNetwork",
      risk: "personal_* (rpc.modules.personal) on mainnet: development controls on a public network",
    });
    expect((error as ConfigError).message).toBe(
      "refusing to start: personal_* (rpc.modules.personal) on mainnet: development controls on a public network; " +
        "set unsafe.allowDevControlsOnPublicNetwork = true (--unsafe.allowDevControlsOnPublicNetwork) to accept the risk",
    );
  });

  it("starts with a warning naming each accepted risk", async () => {
    const log = logger();
    const options = await optionsOf({"rpc.ws.origins": "*", "unsafe.allowWalletWithAnyOrigin": "true"});
    checkRiskyConfigurations(options, log);
    expect(log.warn).toHaveBeenCalledTimes(1);
    expect(log.warn).toHaveBeenCalledWith(
      {risk: RiskyConfigurationCode.WALLET_WITH_ANY_ORIGIN, acceptedBy: "unsafe.allowWalletWithAnyOrigin"},
      expect.stringMatching(/^unsafe configuration accepted by unsafe\.allowWalletWithAnyOrigin: the dev wallet/),
    );
  });

  it("says nothing of a safe configuration", async () => {
    const log = logger();
    checkRiskyConfigurations(await optionsOf({}), log);
    expect(log.warn).not.toHaveBeenCalled();
  });
});

describe("the regtest preset", () => {
  it("binds p2p to loopback on regtest only", async () => {
    expect((await optionsOf({})).p2p.host).toBe("127.0.0.1");
    expect((await optionsOf({network: "testnet"})).p2p.host).toBe("0.0.0.0");
    expect((await optionsOf({network: "mainnet"})).p2p.host).toBe("0.0.0.0");
  });
});
