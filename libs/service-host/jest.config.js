const preset = require('../../jest.preset.js');

// The host applies migrations: one PostgreSQL per jest run (embedded unless DATABASE_URL is set).
module.exports = {
  ...preset,
  displayName: 'service-host',
  rootDir: __dirname,
  globalSetup: '<rootDir>/../testing/src/jest-global-setup.js',
  globalTeardown: '<rootDir>/../testing/src/jest-global-teardown.js',
};
