// Header verification throughput over the 1,060 real mainnet headers, next to the floor set by
// the hashing alone (keccak-256 of each header, double SHA-256 of its Bitcoin header and of each
// merkle-path step), both measured in this run. Needs a build (`npm run build`).
//
//   node scripts/bench/headers.mjs [rounds]
import {getChainspec} from "@xchain/chainspec";
import {checkForkDetectionData, validateHeaderAgainstParent, validateHeaderStandalone} from "@xchain/consensus";
import {BlockHeader} from "@xchain/primitives";
import {readMainnetHeaderLines} from "@xchain/test-utils";
import {concatBytes, hexToBytes, keccak256, sha256d} from "@xchain/utils";

const rounds = Number(process.argv[2] ?? 7);
const chainspec = getChainspec("mainnet");
const raw = readMainnetHeaderLines().map(hexToBytes);
const nowSeconds = Math.floor(Date.now() / 1000);

/** Decodes and validates the whole file the way `xchain verify-headers` does; returns the header count. */
function verifyAll() {
  const byNumber = new Map();
  const ancestry = {headerByNumber: (n) => byNumber.get(n)};
  let parent;
  for (const bytes of raw) {
    const header = BlockHeader.decode(bytes, chainspec);
    validateHeaderStandalone(header, chainspec, {nowSeconds});
    if (parent) validateHeaderAgainstParent(header, parent, chainspec);
    checkForkDetectionData(header, ancestry, chainspec);
    byNumber.set(header.number, header);
    parent = header;
  }
  return raw.length;
}

// The hashing floor's inputs, prepared outside the timed loop.
const floorInputs = raw.map((bytes) => {
  const header = BlockHeader.decode(bytes, chainspec);
  const {bitcoinHeader, merkleProof} = header.mergedMining;
  const steps = [];
  for (let i = 0; i < merkleProof.length; i += 32)
    steps.push(concatBytes(new Uint8Array(32), merkleProof.subarray(i, i + 32)));
  return {bytes, bitcoinHeader, steps};
});

function hashFloor() {
  for (const {bytes, bitcoinHeader, steps} of floorInputs) {
    keccak256(bytes);
    sha256d(bitcoinHeader);
    for (const step of steps) sha256d(step);
  }
  return floorInputs.length;
}

function rate(fn) {
  fn(); // warm-up
  const samples = [];
  for (let r = 0; r < rounds; r++) {
    const start = process.hrtime.bigint();
    const n = fn();
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    samples.push(n / seconds);
  }
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)];
}

const verified = rate(verifyAll);
const floor = rate(hashFloor);
const fmt = (x) => Math.round(x).toLocaleString("en-US");
console.log(`headers: ${raw.length}, rounds: ${rounds} (median)`);
console.log(`full rule set:  ${fmt(verified)} headers/s`);
console.log(`hashing floor:  ${fmt(floor)} headers/s`);
console.log(`floor / full:   ${(floor / verified).toFixed(2)}x (target <= 3x)`);
