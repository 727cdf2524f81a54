import {bytesToHex} from "@xchain/utils";
import {describe, expect, it} from "vitest";
import {GENESIS_COINBASE, GenesisError, GenesisErrorCode, parseCustomGenesis, regtest} from "../src/index.ts";

const minimal = {
  config: {chainId: 99},
  difficulty: "0x0000000001",
  gasLimit: "0x989680",
  alloc: {},
};

function errorOf(json: unknown): GenesisError {
  try {
    parseCustomGenesis(typeof json === "string" ? json : JSON.stringify(json));
  } catch (e) {
    if (e instanceof GenesisError) return e;
    throw e;
  }
  throw new Error("expected a GenesisError");
}

describe("parseCustomGenesis", () => {
  it("reads a full file", () => {
    const {chainspec, genesis} = parseCustomGenesis(
      JSON.stringify({
        config: {chainId: 99},
        difficulty: "0x0000000001",
        gasLimit: "0x989680",
        timestamp: "0x5a4af5b0",
        extraData: "0x686f727365",
        coinbase: "0x1111111111111111111111111111111111111111",
        minimumGasPrice: "1000",
        nonce: "0xdeadbeef",
        mixhash: "0x00",
        alloc: {
          cd2a3d9f938e13cd947ec05abc7fe734df8dd826: {balance: "1000000000000000000000000000000"},
          "0x7986b3df570230288501eea3d890bd66948c9b79": {
            balance: "0x10",
            nonce: 3,
            code: "0x6000",
            storage: {"0x01": "0x02"},
          },
        },
      }),
    );
    expect(chainspec.params.chainId).toBe(99);
    // Named for what it is (the chain's start-up line prints it), with regtest's rules.
    expect(chainspec.params.name).toBe("custom");
    expect(chainspec.params.remascMaturity).toBe(regtest.remascMaturity);
    expect(chainspec.params.activation).toEqual(regtest.activation);
    expect(bytesToHex(genesis.header.difficultyBytes)).toBe("0000000001");
    expect(bytesToHex(genesis.header.gasLimitBytes)).toBe("989680");
    expect(genesis.header.timestamp).toBe(1_514_862_000);
    expect(bytesToHex(genesis.header.extraData)).toBe("686f727365");
    expect(bytesToHex(genesis.header.coinbase)).toBe("11".repeat(20));
    expect(genesis.header.minimumGasPrice).toBe(1000n);
    expect(genesis.alloc).toHaveLength(2);
    expect(genesis.alloc[0]!.balance).toBe(10n ** 30n);
    const second = genesis.alloc[1]!;
    expect(bytesToHex(second.address)).toBe("7986b3df570230288501eea3d890bd66948c9b79");
    expect(second.balance).toBe(16n);
    expect(second.nonce).toBe(3n);
    expect(bytesToHex(second.code!)).toBe("6000");
    expect(second.storage!.map(([k, v]) => [bytesToHex(k), bytesToHex(v)])).toEqual([
      [`${"00".repeat(31)}01`, `${"00".repeat(31)}02`],
    ]);
  });

  it("reads a geth genesis file, ignoring its fork schedule and block-0 fields and listing them", () => {
    const geth = {
      config: {chainId: 99, homesteadBlock: 0, eip150Block: 0, londonBlock: 0, ethash: {}},
      nonce: "0x0",
      timestamp: "0x0",
      extraData: "0x",
      gasLimit: "0x47b760",
      difficulty: "0x01",
      mixHash: `0x${"00".repeat(32)}`,
      coinbase: `0x${"00".repeat(20)}`,
      number: "0x0",
      gasUsed: "0x0",
      parentHash: `0x${"00".repeat(32)}`,
      alloc: {"0xcd2a3d9f938e13cd947ec05abc7fe734df8dd826": {balance: "0xffffffffffffffff"}},
    };
    const {chainspec, genesis, ignored} = parseCustomGenesis(JSON.stringify(geth));
    expect(chainspec.params.chainId).toBe(99);
    expect(bytesToHex(genesis.header.gasLimitBytes)).toBe("47b760");
    expect(genesis.alloc[0]!.balance).toBe(2n ** 64n - 1n);
    expect(ignored).toEqual([
      "config.homesteadBlock",
      "config.eip150Block",
      "config.londonBlock",
      "config.ethash",
      "mixHash",
      "number",
      "gasUsed",
      "parentHash",
    ]);
  });

  it("reads geth's odd-length hex quantities as the numbers they are (difficulty 0x1)", () => {
    const account = "0xcd2a3d9f938e13cd947ec05abc7fe734df8dd826";
    const geth = {
      ...minimal,
      difficulty: "0x1",
      gasLimit: "0x1c9c380",
      timestamp: "0x5",
      minimumGasPrice: "0xa",
      alloc: {[account]: {balance: "0x1", nonce: "0x3"}},
    };
    const {genesis} = parseCustomGenesis(JSON.stringify(geth));
    expect(bytesToHex(genesis.header.difficultyBytes)).toBe("01");
    expect(bytesToHex(genesis.header.gasLimitBytes)).toBe("01c9c380");
    expect(genesis.header.timestamp).toBe(5);
    expect(genesis.header.minimumGasPrice).toBe(10n);
    expect(genesis.alloc[0]!.balance).toBe(1n);
    expect(genesis.alloc[0]!.nonce).toBe(3n);
    // An odd-length value reads the same as its zero-padded form, so the genesis block is the same.
    const padded = parseCustomGenesis(JSON.stringify({...geth, difficulty: "0x01", gasLimit: "0x01c9c380"}));
    expect(padded.genesis.header).toEqual(genesis.header);
  });

  it("says what is wrong with malformed hex: the digit, the prefix, the length", () => {
    expect(errorOf({...minimal, difficulty: "0x1g"}).message).toBe(
      'genesis: "difficulty" must be 0x-prefixed hex of at most 32 bytes, not "0x1g" ("g" at offset 3 is not a hex digit)',
    );
    expect(errorOf({...minimal, gasLimit: "989680"}).message).toBe(
      'genesis: "gasLimit" must be 0x-prefixed hex of at most 32 bytes, not "989680" (no 0x prefix)',
    );
    expect(errorOf({...minimal, gasLimit: 10_000_000}).message).toBe(
      'genesis: "gasLimit" must be 0x-prefixed hex of at most 32 bytes, not 10000000',
    );
    expect(errorOf({...minimal, difficulty: `0x${"01".repeat(33)}`}).message).toMatch(/, not 33 bytes$/);
    expect(errorOf({...minimal, extraData: "0xabc"}).message).toBe(
      'genesis: "extraData" must be 0x-prefixed hex bytes, not "0xabc" (3 hex digits: bytes take two each)',
    );
    expect(errorOf({...minimal, timestamp: "0x1z"}).message).toMatch(
      /"timestamp" must be .*, not "0x1z" \("z" at offset 3 is not a hex digit\)$/,
    );
  });

  it("says why a chain id is refused", () => {
    expect(errorOf({...minimal, config: {chainId: 1337}}).message).toMatch(/1 to 109 .*one byte/);
    expect(errorOf({...minimal, config: {chainId: 31}}).message).toMatch(/Rootstock's testnet/);
  });

  it("takes an extraData of 32 bytes and refuses 33, naming the limit and the length", () => {
    const {genesis} = parseCustomGenesis(JSON.stringify({...minimal, extraData: `0x${"ab".repeat(32)}`}));
    expect(genesis.header.extraData).toHaveLength(32);
    expect(errorOf({...minimal, extraData: `0x${"ab".repeat(33)}`}).message).toBe(
      'genesis: "extraData" must be 0x-prefixed hex of at most 32 bytes (a header\'s extraData limit), not 33 bytes',
    );
  });

  it("defaults timestamp, extraData, coinbase and minimumGasPrice", () => {
    const {genesis} = parseCustomGenesis(JSON.stringify(minimal));
    expect(genesis.header.timestamp).toBe(0);
    expect(genesis.header.extraData).toHaveLength(0);
    expect(genesis.header.coinbase).toEqual(GENESIS_COINBASE);
    expect(genesis.header.minimumGasPrice).toBe(0n);
  });

  const cases: [string, unknown, GenesisErrorCode, string | undefined][] = [
    ["not JSON", "{", GenesisErrorCode.INVALID_JSON, undefined],
    ["not an object", "[]", GenesisErrorCode.BAD_VALUE, ""],
    ["an unknown top-level key", {...minimal, gasLimt: "0x1"}, GenesisErrorCode.UNKNOWN_KEY, "gasLimt"],
    ["Rootstock mainnet's chain id", {...minimal, config: {chainId: 30}}, GenesisErrorCode.BAD_VALUE, "config.chainId"],
    ["Rootstock testnet's chain id", {...minimal, config: {chainId: 31}}, GenesisErrorCode.BAD_VALUE, "config.chainId"],
    ["geth's baseFeePerGas", {...minimal, baseFeePerGas: "0x7"}, GenesisErrorCode.UNSUPPORTED_KEY, "baseFeePerGas"],
    ["no config", {...minimal, config: undefined}, GenesisErrorCode.MISSING_KEY, "config"],
    ["no chain id", {...minimal, config: {}}, GenesisErrorCode.MISSING_KEY, "config.chainId"],
    ["chain id 0", {...minimal, config: {chainId: 0}}, GenesisErrorCode.BAD_VALUE, "config.chainId"],
    [
      "a chain id beyond one-byte v",
      {...minimal, config: {chainId: 200}},
      GenesisErrorCode.BAD_VALUE,
      "config.chainId",
    ],
    ["a fractional chain id", {...minimal, config: {chainId: 1.5}}, GenesisErrorCode.BAD_VALUE, "config.chainId"],
    ["no difficulty", {...minimal, difficulty: undefined}, GenesisErrorCode.MISSING_KEY, "difficulty"],
    ["a zero difficulty", {...minimal, difficulty: "0x00"}, GenesisErrorCode.BAD_VALUE, "difficulty"],
    ["a negative (signed) difficulty", {...minimal, difficulty: "0x80"}, GenesisErrorCode.BAD_VALUE, "difficulty"],
    ["a difficulty without 0x", {...minimal, difficulty: "01"}, GenesisErrorCode.BAD_VALUE, "difficulty"],
    ["a gasLimit with a non-hex digit", {...minimal, gasLimit: "0x98968g"}, GenesisErrorCode.BAD_VALUE, "gasLimit"],
    ["a gasLimit below the minimum", {...minimal, gasLimit: "0x2dc6bf"}, GenesisErrorCode.BAD_VALUE, "gasLimit"],
    ["a negative timestamp", {...minimal, timestamp: -1}, GenesisErrorCode.BAD_VALUE, "timestamp"],
    ["a short coinbase", {...minimal, coinbase: "0x3333"}, GenesisErrorCode.BAD_VALUE, "coinbase"],
    ["a non-hex extraData", {...minimal, extraData: "0xzz"}, GenesisErrorCode.BAD_VALUE, "extraData"],
    ["a 33-byte extraData", {...minimal, extraData: `0x${"ab".repeat(33)}`}, GenesisErrorCode.BAD_VALUE, "extraData"],
    ["a mgp with leading garbage", {...minimal, minimumGasPrice: "12a"}, GenesisErrorCode.BAD_VALUE, "minimumGasPrice"],
    ["a bad address key", {...minimal, alloc: {"0x12": {balance: "1"}}}, GenesisErrorCode.BAD_VALUE, "alloc.0x12"],
    [
      "an account without balance",
      {...minimal, alloc: {["11".repeat(20)]: {}}},
      GenesisErrorCode.MISSING_KEY,
      `alloc.${"11".repeat(20)}.balance`,
    ],
    [
      "an unknown account key",
      {...minimal, alloc: {["11".repeat(20)]: {balance: "1", wei: "1"}}},
      GenesisErrorCode.UNKNOWN_KEY,
      `alloc.${"11".repeat(20)}.wei`,
    ],
    [
      "a float balance",
      {...minimal, alloc: {["11".repeat(20)]: {balance: 1.5}}},
      GenesisErrorCode.BAD_VALUE,
      `alloc.${"11".repeat(20)}.balance`,
    ],
    [
      "a storage slot over 32 bytes",
      {...minimal, alloc: {["11".repeat(20)]: {balance: "1", storage: {[`0x${"00".repeat(33)}`]: "0x01"}}}},
      GenesisErrorCode.BAD_VALUE,
      `alloc.${"11".repeat(20)}.storage.0x${"00".repeat(33)}`,
    ],
    [
      "the same address twice",
      {...minimal, alloc: {["aa".repeat(20)]: {balance: "1"}, [`0x${"AA".repeat(20)}`]: {balance: "2"}}},
      GenesisErrorCode.DUPLICATE_ACCOUNT,
      `alloc.0x${"AA".repeat(20)}`,
    ],
  ];
  for (const [what, json, code, key] of cases) {
    it(`refuses ${what} with ${code}`, () => {
      const err = errorOf(json);
      expect(err.code).toBe(code);
      if (key !== undefined) expect((err.type as {key: string}).key).toBe(key);
    });
  }
});
