module.exports = { ...require('../../jest.preset.js'), displayName: 'k8s-check', rootDir: __dirname };
