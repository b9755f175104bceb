const preset = require('../../jest.preset.js');

// @fastify/swagger-ui → @fastify/static → content-disposition and light-my-request (inject) →
// cookie are ESM-only: transform them
// too, on top of the preset's list.
const extraEsm = ['content-disposition', 'cookie'];
const [presetPattern] = preset.transformIgnorePatterns;

module.exports = {
  ...preset,
  displayName: 'gateway',
  rootDir: __dirname,
  testTimeout: 30000,
  transformIgnorePatterns: [presetPattern.replace('/(?!(', `/(?!(${extraEsm.join('|')}|`)],
};
