import nx from '@nx/eslint-plugin';

// Project tags (DESIGN §2): scope:<service>|gateway|launcher|shared and
// type:app|feature|data-access|util|proto|testing. Apps never import apps; the one launcher
// (apps/exchange) is the only project allowed to start services in-process.
const services = ['identity', 'market', 'wallet-ledger', 'commerce', 'workflows', 'registry', 'telemetry', 'sandbox-merchant'];

// Apps whose start function the launcher (apps/exchange) may import to run them in one process.
const launchableApps = ['identity', 'wallet-ledger', 'market', 'registry', 'commerce', 'workflows', 'telemetry', 'gateway', 'sandbox-merchant'];

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

// Service layers (docs/adding-a-service.md "Layers"): transport → application → domain, with data
// (repositories, outbound clients, event encoders) beside the domain. An import that points back
// up (domain → anything, data → application/transport, application → transport or proto) fails
// lint. Roles come from folder or file name, so layer folders and per-area slices read the same.
const serviceSrc = ['identity', 'wallet-ledger', 'market', 'registry', 'commerce', 'workflows', 'telemetry', 'sandbox-merchant'].map((s) => `apps/${s}/src`);
const transport = ['grpc', '*.handlers', '*.mapper'];
const application = ['service', '*.service', 'workers', '*.worker', 'saga'];
const dataRole = ['data', '*.repo', 'store', '*.store', 'clients', '*.client', 'events', '*.events', 'generated'];
const roleFiles = (globs) => serviceSrc.flatMap((src) => globs.map((g) => `${src}/${g}`));
const notTests = ['**/*.spec.ts', '**/*.test.ts'];
const restrict = (groups, message) => ['error', { patterns: [{ group: groups, message }] }];
const layerRules = [
  {
    // Domain: everything that is not transport, application, data or wiring.
    files: roleFiles(['**/*.ts']),
    ignores: [
      ...notTests,
      ...roleFiles(['**/grpc/**', '**/*.handlers.ts', '**/*.mapper.ts', '**/service/**', '**/*.service.ts', '**/workers/**', '**/*.worker.ts', '**/saga/**',
        '**/data/**', '**/*.repo.ts', '**/store/**', '**/*.store.ts', '**/clients/**', '**/*.client.ts', '**/events/**', '**/*.events.ts',
        'main.ts', 'config.ts', 'index.ts', 'bootstrap.ts']),
    ],
    rules: {
      'no-restricted-imports': restrict([...transport, ...application, ...dataRole, '@exchange/proto', '@grpc/grpc-js', '@prisma/client', '@exchange/db'],
        'domain code is pure: no transport, application, data, proto, gRPC or database imports (docs/adding-a-service.md, Layers)'),
    },
  },
  {
    files: roleFiles(['**/data/**/*.ts', '**/*.repo.ts', '**/store/**/*.ts', '**/*.store.ts', '**/clients/**/*.ts', '**/*.client.ts', '**/events/**/*.ts', '**/*.events.ts']),
    ignores: notTests,
    rules: { 'no-restricted-imports': restrict([...transport, ...application], 'data code may not import the application or transport layer (docs/adding-a-service.md, Layers)') },
  },
  {
    files: roleFiles(['**/service/**/*.ts', '**/*.service.ts', '**/workers/**/*.ts', '**/*.worker.ts', '**/saga/**/*.ts']),
    ignores: notTests,
    rules: { 'no-restricted-imports': restrict([...transport, '@exchange/proto'], 'application code takes and returns domain types: no transport or proto imports (docs/adding-a-service.md, Layers)') },
  },
];

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
  ...layerRules,
  {
    // s3rver ships no types; registry's tests declare them (apps/registry/test/s3rver.d.ts). The
    // shared `npm run typecheck` program would lend those to any file importing it, which its own
    // project's typecheck (and Docker build) would refuse, and it is a dev dependency: only
    // registry's tests may import it. By path, so files of no project are covered too; the
    // typescript-eslint rule, so the layer rules' own no-restricted-imports do not replace it.
    files: ['**/*.ts'],
    ignores: ['apps/registry/test/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { paths: [{ name: 's3rver', message: 'only apps/registry/test may import s3rver (its types are declared there)' }] }],
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
  {
    // The launcher's own specs may look at the apps it starts (checks that span two apps, such as
    // the gateway's copy of the workflows task event types).
    files: ['apps/exchange/src/**/*.spec.ts'],
    rules: {
      '@nx/enforce-module-boundaries': ['error', boundaryOptions(true, launchableApps.map((a) => `@exchange/${a}`))],
    },
  },
];
