// Root config: every project's jest config (used by `jest` at the root and by editors).
module.exports = { projects: ['<rootDir>/libs/*/jest.config.js', '<rootDir>/apps/*/jest.config.js'] };
