module.exports = { ...require('../../jest.preset.js'), displayName: 'spec-coverage', rootDir: __dirname };
