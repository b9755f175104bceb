// Jest testSequencer (apps/exchange): jest's own order, then the files on the run's shared stack first
// (`bootStack({ shared: true })` only), files that also boot their own next, the rest last. A private stack
// stops the shared one before it boots (two exchanges on one NATS would split its durable consumers), so
// this order boots the shared stack once; any other order stays correct, only slower.
const { readFileSync } = require('node:fs');
const Sequencer = require('@jest/test-sequencer').default;

const SHARED = /bootStack\(\{\s*shared:\s*true\s*\}\)/g;
const ANY = /bootStack\(/g;

function group(path) {
  const source = readFileSync(path, 'utf8');
  const shared = (source.match(SHARED) ?? []).length;
  if (shared === 0) return 2;
  return shared === (source.match(ANY) ?? []).length ? 0 : 1;
}

module.exports = class SharedStackFirst extends Sequencer {
  async sort(tests) {
    const sorted = await super.sort(tests);
    const groups = new Map(sorted.map((test) => [test, group(test.path)]));
    // Array.prototype.sort is stable: jest's order is kept within each group.
    return [...sorted].sort((a, b) => groups.get(a) - groups.get(b));
  }
};
