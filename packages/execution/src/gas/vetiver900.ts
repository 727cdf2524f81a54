import type {Common} from "@ethereumjs/common";
import {getActivePrecompiles} from "@ethereumjs/evm";
import {MODEXP_PRECOMPILE_ADDRESS, modexpEip198} from "../precompiles/05-modexp.ts";
import {priceFirstPrecompiles} from "../precompiles/priceFirst.ts";
import {builtinOpcode} from "./builtin.ts";
import {CallKind, callGas} from "./call.ts";
import {createGas, createLogic} from "./create.ts";
import {extcodehashLogic, extcodesizeLogic} from "./extcode.ts";
import type {GasProfile} from "./gasProfile.ts";
import {selfdestructGas} from "./selfdestruct.ts";
import {sstoreGas} from "./sstore.ts";
import type {AddOpcode, BlockScope, GasFunction, LogicFunction} from "./types.ts";

const builtinLogic = (common: Common, opcode: number): LogicFunction => builtinOpcode(common, opcode).logic;

function opcodes(common: Common, scope: BlockScope): AddOpcode[] {
  const op = (opcode: number, name: string, baseFee: bigint, gasFunction?: GasFunction, logic?: LogicFunction) => {
    const entry: AddOpcode = {
      opcode,
      opcodeName: name,
      baseFee: Number(baseFee),
      logicFunction: logic ?? builtinLogic(common, opcode),
    };
    if (gasFunction) entry.gasFunction = gasFunction;
    return entry;
  };
  const param = (name: string) => common.param(name);
  return [
    op(0x3b, "EXTCODESIZE", param("extcodesizeGas"), undefined, extcodesizeLogic(builtinLogic(common, 0x3b))),
    op(0x3f, "EXTCODEHASH", param("extcodehashGas"), undefined, extcodehashLogic),
    op(0x55, "SSTORE", 0n, sstoreGas),
    op(0xf0, "CREATE", param("createGas"), createGas(false), createLogic(builtinLogic(common, 0xf0), scope, false)),
    op(0xf1, "CALL", param("callGas"), callGas(CallKind.CALL)),
    op(0xf2, "CALLCODE", param("callcodeGas"), callGas(CallKind.CALLCODE)),
    op(0xf4, "DELEGATECALL", param("delegatecallGas"), callGas(CallKind.DELEGATECALL)),
    op(0xf5, "CREATE2", param("create2Gas"), createGas(true), createLogic(builtinLogic(common, 0xf5), scope, true)),
    op(0xfa, "STATICCALL", param("staticcallGas"), callGas(CallKind.STATICCALL)),
    op(0xff, "SELFDESTRUCT", param("selfdestructGas"), selfdestructGas),
  ];
}

/** rskj at vetiver900 (mainnet 8,804,200; the rules of every current network). */
export const vetiver900: GasProfile = {
  name: "vetiver900",
  activationHeight: () => 0,
  // docs/protocol/gas.md §11.2: the Tangerine-Whistle-era costs, EIP-2929 surcharges off, ½ refund cap, depth 400.
  params: {
    sloadGas: 200,
    coldsloadGas: 0,
    warmstoragereadGas: 0,
    coldaccountaccessGas: 0,
    balanceGas: 400,
    extcodesizeGas: 700,
    extcodecopyGas: 700,
    extcodehashGas: 400,
    callGas: 700,
    callcodeGas: 700,
    delegatecallGas: 700,
    staticcallGas: 700,
    selfdestructRefundGas: 24_000,
    maxRefundQuotient: 2,
    stackLimit: 400,
  },
  opcodes,
  precompiles: (common, messages) => {
    const modexp = getActivePrecompiles(common).get(MODEXP_PRECOMPILE_ADDRESS.slice(2));
    return [
      ...(modexp ? [{address: MODEXP_PRECOMPILE_ADDRESS, function: modexpEip198(modexp)}] : []),
      ...priceFirstPrecompiles(common, messages),
    ];
  },
};
