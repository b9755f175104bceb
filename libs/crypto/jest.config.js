module.exports = { ...require('../../jest.preset.js'), displayName: 'crypto', rootDir: __dirname };
