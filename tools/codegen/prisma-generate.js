#!/usr/bin/env node
// Generates every service's Prisma client (apps/*/prisma/schema.prisma) offline.
// Prisma's CLI tries to download Rust engines first; pointing these variables at any existing
// file skips that (see shared notes: prisma-offline.md). The generated client uses
// engineType "client" + @prisma/adapter-pg, so no engine is needed at run time.
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '../..');
const appsDir = path.join(root, 'apps');
const env = {
  ...process.env,
  PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY || '/bin/false',
  PRISMA_QUERY_ENGINE_LIBRARY: process.env.PRISMA_QUERY_ENGINE_LIBRARY || '/bin/false',
  PRISMA_HIDE_UPDATE_MESSAGE: '1',
  CHECKPOINT_DISABLE: '1',
  DATABASE_URL: process.env.DATABASE_URL || 'postgresql://unused@localhost/unused',
};
const prismaBin = path.join(root, 'node_modules', '.bin', 'prisma');
if (!fs.existsSync(prismaBin)) process.exit(0); // production installs without devDependencies

for (const app of fs.existsSync(appsDir) ? fs.readdirSync(appsDir).sort() : []) {
  const schema = path.join(appsDir, app, 'prisma', 'schema.prisma');
  if (!fs.existsSync(schema)) continue;
  execFileSync(prismaBin, ['generate', '--schema', schema], { cwd: root, env, stdio: ['ignore', 'ignore', 'inherit'] });
  console.log(`prisma client generated for ${app}`);
}
