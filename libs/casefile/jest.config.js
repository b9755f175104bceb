module.exports = { ...require('../../jest.preset.js'), displayName: 'casefile', rootDir: __dirname };
