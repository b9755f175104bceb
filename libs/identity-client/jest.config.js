module.exports = { ...require('../../jest.preset.js'), displayName: 'identity-client', rootDir: __dirname };
