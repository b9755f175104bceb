module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'ledger-check',
  rootDir: __dirname,
  // The integration test runs a real wallet-ledger on a test database (embedded PostgreSQL when
  // no DATABASE_URL is set, libs/testing).
  globalSetup: '<rootDir>/../../libs/testing/src/jest-global-setup.js',
  globalTeardown: '<rootDir>/../../libs/testing/src/jest-global-teardown.js',
};
