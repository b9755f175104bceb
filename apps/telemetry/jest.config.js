module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'telemetry',
  rootDir: __dirname,
  // One embedded PostgreSQL per jest run when no DATABASE_URL is set (libs/testing).
  globalSetup: '<rootDir>/../../libs/testing/src/jest-global-setup.js',
  globalTeardown: '<rootDir>/../../libs/testing/src/jest-global-teardown.js',
};
