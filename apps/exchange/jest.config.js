module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'exchange',
  rootDir: __dirname,
  // End-to-end suites boot the whole exchange (embedded PostgreSQL included) per file.
  testTimeout: 120000,
  // The end-to-end files marked `bootStack({ shared: true })` share one stack per run (test/e2e/shared-stack.ts).
  globalSetup: '<rootDir>/test/e2e/shared-stack.setup.js',
  globalTeardown: '<rootDir>/test/e2e/shared-stack.teardown.js',
  testSequencer: '<rootDir>/test/e2e/shared-stack.sequencer.js',
};
