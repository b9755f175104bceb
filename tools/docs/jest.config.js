module.exports = { ...require('../../jest.preset.js'), displayName: 'docs-tools', rootDir: __dirname };
