// Jest globalTeardown (apps/exchange): stops the run's shared stack, if a file booted it (shared-stack.setup.js).
const SHARED_STACK_KEY = '__exchangeE2eSharedStack'; // shared-stack.ts

module.exports = async function teardownSharedStack() {
  const acquire = process[SHARED_STACK_KEY];
  delete process[SHARED_STACK_KEY];
  await acquire?.stop();
};
