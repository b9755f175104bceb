module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'registry',
  rootDir: __dirname,
  // Unit specs beside the sources, integration specs under test/.
  testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/test/**/*.spec.ts'],
  // One embedded PostgreSQL per jest run when no DATABASE_URL is set (libs/testing).
  globalSetup: '<rootDir>/../../libs/testing/src/jest-global-setup.js',
  globalTeardown: '<rootDir>/../../libs/testing/src/jest-global-teardown.js',
};
