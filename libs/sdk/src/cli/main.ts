// Entry point of `exchange` (bin/exchange.js) and of `npm run exchange` (plain `tsx <this file>`).
// Plain tsx finds no tsconfig at the repo root, so `@exchange/*` aliases would not resolve; a
// namespaced tsx loader with tsconfig.base.json loads the CLI either way.
import { resolve } from 'node:path';
import { register } from 'tsx/cjs/api';

process.env['TSX_TSCONFIG_PATH'] ??= resolve(__dirname, '../../../../tsconfig.base.json');
const loader = register({ namespace: 'exchange-cli' });
const { runCli } = loader.require('./run-cli.ts', __filename) as typeof import('./run-cli');

runCli(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`error: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);
