module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'gateway',
  rootDir: __dirname,
};
