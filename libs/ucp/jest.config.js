module.exports = { ...require('../../jest.preset.js'), displayName: 'ucp', rootDir: __dirname };
