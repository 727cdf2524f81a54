/** The state controls (anvil_setBalance…): an edit reaches the pending block and the next block at once. */
import {REMASC_ADDRESS, REMASC_SENDER} from "@xchain/primitives";
import {bigIntToFixedBytes, equalBytes} from "@xchain/utils";
import {describe, expect, it} from "vitest";
import {MinerErrorCode} from "../src/index.ts";
import {account, openMiner, solvedBlock, transfer} from "./helpers.ts";

const target = 2n ** 256n / 3n;

describe("state controls", () => {
  it("an edit drops the pending block and the work handed out; the next block carries it", async () => {
    const {miner, chain} = await openMiner();
    const poor = account("state controls poor");
    const before = await miner.pendingBlock();
    const work = await miner.getWork();

    await miner.devControls().state.setBalance(poor.address, 10n ** 18n);

    const after = await miner.pendingBlock();
    expect(after).not.toBe(before);
    expect(equalBytes(after.block.header.stateRoot, before.block.header.stateRoot)).toBe(false);
    // Work built on the state before the edit would not import on it any more.
    await expect(miner.submitBitcoinBlock(solvedBlock(work.blockHashForMergedMining, target))).rejects.toMatchObject({
      type: {code: MinerErrorCode.WORK_NOT_FOUND},
    });
    await miner.mineBlock();
    expect(chain.head().number).toBe(1);
    expect(await (await chain.stateAt(chain.head().hash)).getBalance(poor.address)).toBe(10n ** 18n);
  });

  it("a transaction the edit makes valid is mined: a funded sender with a set nonce", async () => {
    const {miner, pool, chain} = await openMiner();
    const sender = account("state controls sender");
    await miner.devControls().state.addBalance(sender.address, 10n ** 18n);
    await miner.devControls().state.addBalance(sender.address, 1n);
    await miner.devControls().state.setNonce(sender.address, 4n);
    pool.add(transfer(sender, {nonce: 4n, value: 5n}));
    await miner.mineBlock();
    const block = await chain.getBlock(chain.head().hash);
    expect(block?.transactions).toHaveLength(2);
    const state = await chain.stateAt(chain.head().hash);
    expect(await state.getNonce(sender.address)).toBe(5n);
    expect(await state.getBalance(sender.address)).toBe(10n ** 18n + 1n - 5n);
  });

  it("writes code and storage, and caps addBalance at 2^256 - 1", async () => {
    const {miner, chain} = await openMiner();
    const target = account("state controls target").address;
    const slot = bigIntToFixedBytes(1n, 32);
    const word = bigIntToFixedBytes(42n, 32);
    await miner.devControls().state.setCode(target, Uint8Array.of(0x00));
    await miner.devControls().state.setStorageAt(target, slot, word);
    await miner.devControls().state.setBalance(target, 2n ** 256n - 2n);
    await miner.devControls().state.addBalance(target, 10n);
    const state = await chain.stateAt(chain.head().hash);
    expect(await state.getCode(target)).toEqual(Uint8Array.of(0x00));
    expect(await state.getStorage(target, slot)).toEqual(word);
    expect(await state.getBalance(target)).toBe(2n ** 256n - 1n);
  });

  it("refuses every control where the dev controls are off, and an ERC-20 without a slot its getter reads", async () => {
    const off = await openMiner({devControls: false});
    const refused = {type: expect.objectContaining({code: MinerErrorCode.NOT_ALLOWED})};
    const who = account("state controls who").address;
    expect(() => off.miner.devControls().state.setBalance(who, 1n)).toThrow(expect.objectContaining(refused));
    expect(() => off.miner.devControls().state.dealErc20(who, who, 1n)).toThrow(expect.objectContaining(refused));

    const {miner, chain} = await openMiner();
    // The protocol's accounts: REMASC's nonce counts blocks, its account holds the fees it pays out.
    await expect(async () => miner.devControls().state.setNonce(REMASC_SENDER, 9n)).rejects.toMatchObject({
      ...refused,
      message: expect.stringMatching(/REMASC transaction's/),
    });
    await expect(async () => miner.devControls().state.setBalance(REMASC_ADDRESS, 0n)).rejects.toMatchObject({
      ...refused,
      message: expect.stringMatching(/REMASC's account/),
    });
    await miner.mineBlock();
    expect(chain.head().number).toBe(1);
    // No code at the "token": balanceOf answers nothing and reads no slot.
    await expect(miner.devControls().state.dealErc20(who, account("no token").address, 5n)).rejects.toMatchObject({
      ...refused,
      message: expect.stringMatching(/unable to set the ERC-20 balance: no storage slot/),
    });
  });
});
