module.exports = { ...require('../../jest.preset.js'), displayName: 'http-signatures', rootDir: __dirname };
