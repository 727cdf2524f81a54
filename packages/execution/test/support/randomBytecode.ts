/**
 * Seeded random EVM programs for the differential test of the patched EVM (docs/dependencies.md §7):
 * mostly well-formed code (each opcode gets its operands pushed first, jumps land on JUMPDESTs) so
 * that executions go deep, plus raw random bytes for the invalid-opcode and truncated-PUSH paths.
 */

/** A deterministic generator of 32-bit values (mulberry32). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
}

/** `length` random bytes. */
export function randomBytes(next: () => number, length: number): Uint8Array {
  return Uint8Array.from({length}, () => next() & 0xff);
}

// Opcodes and how many stack operands each takes. Memory offsets and sizes come from `operand`,
// which keeps most of them small so that executions do not all run out of gas at once.
const OPS: readonly [number, number][] = [
  ...[0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x0a, 0x0b, 0x10, 0x11, 0x12, 0x13, 0x14].map(
    (op): [number, number] => [op, 2],
  ),
  [0x08, 3],
  [0x09, 3],
  [0x15, 1],
  [0x16, 2],
  [0x17, 2],
  [0x18, 2],
  [0x19, 1],
  [0x1a, 2],
  [0x1b, 2],
  [0x1c, 2],
  [0x1d, 2],
  [0x20, 2],
  ...[0x30, 0x32, 0x33, 0x34, 0x36, 0x38, 0x3a, 0x3d, 0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48].map(
    (op): [number, number] => [op, 0],
  ),
  [0x31, 1],
  [0x35, 1],
  [0x37, 3],
  [0x39, 3],
  [0x3b, 1],
  [0x3c, 4],
  [0x3e, 3],
  [0x3f, 1],
  [0x40, 1],
  [0x50, 1],
  [0x51, 1],
  [0x52, 2],
  [0x53, 2],
  [0x54, 1],
  [0x55, 2],
  [0x58, 0],
  [0x59, 0],
  [0x5a, 0],
  [0x5c, 1],
  [0x5d, 2],
  [0x5e, 3],
  [0x5f, 0],
  [0x80, 0],
  [0x90, 0],
  [0xa0, 2],
  [0xa1, 3],
  [0xa2, 4],
  [0xa4, 6],
  [0xf0, 3],
  [0xf1, 7],
  [0xf2, 7],
  [0xf4, 6],
  [0xf5, 4],
  [0xfa, 6],
];
const ENDINGS: readonly [number, number][] = [
  [0x00, 0],
  [0xf3, 2],
  [0xfd, 2],
  [0xfe, 0],
  [0xff, 1],
];

/** Options of `randomProgram`: the addresses CALLs and BALANCEs aim at. */
export interface ProgramTargets {
  addresses: readonly Uint8Array[];
}

/** A random program of about `ops` operations. */
export function randomProgram(next: () => number, ops: number, targets: ProgramTargets): Uint8Array {
  const code: number[] = [];
  const jumpdests: number[] = [];
  const jumpSlots: number[] = [];
  const push = (bytes: Uint8Array) => {
    const trimmed = bytes.length === 0 ? Uint8Array.of(0) : bytes;
    code.push(0x5f + trimmed.length, ...trimmed);
  };
  const operand = () => {
    const kind = next() % 10;
    if (kind < 5) return Uint8Array.of(next() % 96);
    if (kind < 7) return randomBytes(next, 1 + (next() % 32));
    if (kind < 9) return targets.addresses[next() % targets.addresses.length] as Uint8Array;
    return Uint8Array.of(0x01, 0x00, 0x00);
  };
  for (let i = 0; i < ops; i++) {
    const roll = next() % 20;
    if (roll === 0) {
      jumpdests.push(code.length);
      code.push(0x5b);
    } else if (roll === 1 || roll === 2) {
      // JUMPI (roll 1) with a mostly-false condition, so that loops end; JUMP (roll 2) only forward.
      if (roll === 1) push(Uint8Array.of(next() % 4 === 0 ? 1 : 0));
      jumpSlots.push(code.length);
      code.push(0x61, 0, 0, roll === 1 ? 0x57 : 0x56);
    } else {
      const [op, inputs] = OPS[next() % OPS.length] as [number, number];
      for (let k = 0; k < inputs; k++) push(operand());
      code.push(op === 0x80 || op === 0x90 ? op + (next() % 16) : op);
    }
  }
  const [end, inputs] = ENDINGS[next() % ENDINGS.length] as [number, number];
  for (let k = 0; k < inputs; k++) push(operand());
  code.push(end);
  jumpdests.push(code.length);
  code.push(0x5b, 0x00);
  for (const slot of jumpSlots) {
    const isJump = code[slot + 3] === 0x56;
    const ahead = jumpdests.filter((d) => d > slot);
    const pool = isJump ? ahead : jumpdests;
    // A JUMP now and then lands on a byte that is not a JUMPDEST.
    const target = next() % 16 === 0 ? next() % code.length : (pool[next() % pool.length] as number);
    code[slot + 1] = target >> 8;
    code[slot + 2] = target & 0xff;
  }
  return Uint8Array.from(code);
}
