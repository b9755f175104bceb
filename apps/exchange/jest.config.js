module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'exchange',
  rootDir: __dirname,
  // End-to-end suites boot the whole exchange (embedded PostgreSQL included) per file.
  testTimeout: 120000,
};
