// Jest globalSetup (apps/exchange): installs the booter of the run's shared stack on the real `process`
// (see shared-stack.ts). Plain CommonJS, as it runs in jest's own process, outside any test sandbox, where
// jest's transform and module mapping do not apply: the stack's TypeScript loads through tsx instead.
const { register } = require('tsx/cjs/api');

module.exports = async function setupSharedStack() {
  const tsx = register({ namespace: 'exchange-e2e-shared-stack' });
  const { SHARED_STACK_KEY, SHARED_STACK_ENV } = tsx.require('./shared-stack.ts', __filename);
  let booting;
  const acquire = () => {
    booting ??= tsx.require('./stack.ts', __filename).startStack({ env: SHARED_STACK_ENV });
    return booting;
  };
  acquire.stop = async () => {
    const current = booting;
    booting = undefined;
    const stack = await current?.catch(() => undefined); // a failed boot already failed its files
    await stack?.stop();
  };
  process[SHARED_STACK_KEY] = acquire;
};
