import nx from '@nx/eslint-plugin';

// Project tags (DESIGN §2): scope:<service>|gateway|launcher|shared and
// type:app|feature|data-access|util|proto|testing. Apps never import apps; the one launcher
// (apps/exchange) is the only project allowed to start services in-process.
const services = ['identity', 'market', 'wallet-ledger', 'commerce', 'workflows', 'registry', 'telemetry'];

// Apps whose start function the launcher (apps/exchange) may import to run them in one process.
const launchableApps = ['identity', 'wallet-ledger', 'market', 'registry', 'gateway'];

function boundaryOptions(inTests, extraAllow = []) {
  const withTesting = (tags) => (inTests ? [...tags, 'type:testing'] : tags);
  return {
    enforceBuildableLibDependency: false,
    allowCircularSelfDependency: false,
    allow: ['^.*/eslint(\\.base)?\\.config\\.[cm]?js$', '^.*/jest\\.preset\\.js$', ...extraAllow],
    depConstraints: [
      { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared'] },
      { sourceTag: 'scope:gateway', onlyDependOnLibsWithTags: ['scope:gateway', 'scope:shared'] },
      ...services.map((s) => ({ sourceTag: `scope:${s}`, onlyDependOnLibsWithTags: [`scope:${s}`, 'scope:shared'] })),
      { sourceTag: 'scope:launcher', onlyDependOnLibsWithTags: ['*'] },
      { sourceTag: 'scope:tools', onlyDependOnLibsWithTags: ['scope:shared', 'scope:tools'] },
      { sourceTag: 'type:app', onlyDependOnLibsWithTags: withTesting(['type:feature', 'type:data-access', 'type:util', 'type:proto', 'type:service']) },
      { sourceTag: 'type:service', onlyDependOnLibsWithTags: withTesting(['type:feature', 'type:data-access', 'type:util', 'type:proto']) },
      { sourceTag: 'type:feature', onlyDependOnLibsWithTags: withTesting(['type:feature', 'type:data-access', 'type:util', 'type:proto']) },
      { sourceTag: 'type:data-access', onlyDependOnLibsWithTags: withTesting(['type:data-access', 'type:util', 'type:proto']) },
      { sourceTag: 'type:util', onlyDependOnLibsWithTags: withTesting(['type:util']) },
      { sourceTag: 'type:proto', onlyDependOnLibsWithTags: [] },
      { sourceTag: 'type:testing', onlyDependOnLibsWithTags: ['type:feature', 'type:data-access', 'type:util', 'type:proto'] },
    ],
  };
}

export default [
  ...nx.configs['flat/base'],
  ...nx.configs['flat/typescript'],
  ...nx.configs['flat/javascript'],
  { ignores: ['**/dist', '**/node_modules', '**/.data', '**/src/data/generated/**', 'libs/proto/src/gen/**', '.nx/**', 'tmp/**'] },
  {
    files: ['**/*.ts', '**/*.js', '**/*.mjs', '**/*.cjs'],
    rules: {
      '@nx/enforce-module-boundaries': ['error', boundaryOptions(false)],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // The one exception to "apps never import apps": the all-in-one launcher starts them.
    files: ['apps/exchange/src/**/*.ts'],
    rules: {
      '@nx/enforce-module-boundaries': ['error', boundaryOptions(false, launchableApps.map((a) => `@exchange/${a}`))],
    },
  },
  {
    files: ['**/*.spec.ts', '**/*.test.ts', '**/test/**/*.ts', 'tools/bench/**/*.ts'],
    rules: {
      // Tests and benchmarks (and only they) may use the shared test helpers of @exchange/testing.
      '@nx/enforce-module-boundaries': ['error', boundaryOptions(true)],
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
];
