import base from '../../eslint.config.mjs';

// Specs of this data-access lib use @exchange/testing (type:testing) for real-database and NATS
// helpers; production files keep the root constraints unchanged.
const [level, options] = base.find((block) => block.rules?.['@nx/enforce-module-boundaries']).rules['@nx/enforce-module-boundaries'];
const specOptions = {
  ...options,
  depConstraints: options.depConstraints.map((constraint) =>
    constraint.sourceTag === 'type:data-access'
      ? { ...constraint, onlyDependOnLibsWithTags: [...constraint.onlyDependOnLibsWithTags, 'type:testing'] }
      : constraint,
  ),
};

export default [
  ...base,
  { files: ['**/*.spec.ts', '**/test/**/*.ts'], rules: { '@nx/enforce-module-boundaries': [level, specOptions] } },
];
