module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'sandbox-merchant',
  rootDir: __dirname,
};
