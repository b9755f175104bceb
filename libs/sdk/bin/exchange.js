#!/usr/bin/env node
// `npx exchange …`: runs the TypeScript CLI through tsx, with the repo's tsconfig.base.json so the
// `@exchange/*` path aliases resolve.
const path = require('node:path');

process.env.TSX_TSCONFIG_PATH ??= path.resolve(__dirname, '../../../tsconfig.base.json');
require('tsx/cjs/api').register();
require('../src/cli/main.ts');
