/**
 * The state controls of anvil and Hardhat (docs/rpc.md §4.10 "State"), through the miner's
 * `stateControls`: each edits the head's state at once, visible to `latest` and `pending` reads and
 * carried by the next block mined. Parameters as anvil reads them (numbers as JSON integers, hex or
 * decimal strings; a storage value of exactly 32 bytes); answers as anvil's: null, and true for
 * setStorageAt (Hardhat answers true to all; its helpers read no answer). Refused where the miner's
 * dev controls are off (MinerError NOT_ALLOWED, -32602).
 */
import {bigIntToFixedBytes} from "@xchain/utils";
import type {RpcMethod} from "../../jsonrpc/registry.ts";
import type {ModuleDeps} from "../../moduleDeps.ts";
import {anvilUint} from "../../params/anvilNumber.ts";
import {address, data, hash} from "../../params/hex.ts";
import {method, param} from "../../params/method.ts";
import {requireMiner} from "../unavailable.ts";

/** anvil stores a nonce as 64 bits and saturates a larger one. */
const NONCE_MAX = (1n << 64n) - 1n;

/** anvil_setBalance, addBalance, setCode, setNonce, setStorageAt, dealERC20 (alias setERC20Balance), setERC20Allowance. */
export function stateMethods({miner}: Pick<ModuleDeps, "miner">): Record<string, RpcMethod> {
  const controls = () => requireMiner(miner).devControls().state;
  const dealErc20 = method(
    [param("address", address), param("token", address), param("balance", anvilUint)],
    async (holder, token, balance) => {
      await controls().dealErc20(holder, token, balance);
      return null;
    },
  );
  return {
    /** Handler for `anvil_setBalance`: the account's balance, the account created if missing */
    setBalance: method([param("address", address), param("balance", anvilUint)], async (account, balance) => {
      await controls().setBalance(account, balance);
      return null;
    }),
    /** Handler for `anvil_addBalance`: the balance plus the amount, capped at 2^256 − 1 */
    addBalance: method([param("address", address), param("amount", anvilUint)], async (account, amount) => {
      await controls().addBalance(account, amount);
      return null;
    }),
    /** Handler for `anvil_setCode`: the account's code (empty `0x` removes it) */
    setCode: method([param("address", address), param("code", data)], async (account, code) => {
      await controls().setCode(account, code);
      return null;
    }),
    /** Handler for `anvil_setNonce`: the account's nonce (above 2^64 − 1 saturated, as anvil does) */
    setNonce: method([param("address", address), param("nonce", anvilUint)], async (account, nonce) => {
      await controls().setNonce(account, nonce > NONCE_MAX ? NONCE_MAX : nonce);
      return null;
    }),
    /** Handler for `anvil_setStorageAt`: one 32-byte storage word; answers true */
    setStorageAt: method(
      [param("address", address), param("slot", anvilUint), param("value", hash)],
      async (account, slot, value) => {
        await controls().setStorageAt(account, bigIntToFixedBytes(slot, 32), value);
        return true;
      },
    ),
    /** Handler for `anvil_dealERC20`: a holder's token balance, at the slot the token's balanceOf reads */
    dealERC20: dealErc20,
    /** Handler for `anvil_setERC20Balance`: anvil's other name of dealERC20 */
    setERC20Balance: dealErc20,
    /** Handler for `anvil_setERC20Allowance`: an owner's allowance to a spender, at the slot allowance reads */
    setERC20Allowance: method(
      [param("owner", address), param("spender", address), param("token", address), param("amount", anvilUint)],
      async (owner, spender, token, amount) => {
        await controls().setErc20Allowance(owner, spender, token, amount);
        return null;
      },
    ),
  };
}
