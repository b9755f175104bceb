const preset = require('../../jest.preset.js');

// Integration tests get one PostgreSQL per jest run (embedded unless DATABASE_URL is set);
// see libs/testing/README.md.
module.exports = {
  ...preset,
  displayName: 'events',
  rootDir: __dirname,
  globalSetup: '<rootDir>/../testing/src/jest-global-setup.js',
  globalTeardown: '<rootDir>/../testing/src/jest-global-teardown.js',
};
