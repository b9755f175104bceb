#!/usr/bin/env node
// Our npm registry mirror serves only the platform binaries this machine uses (linux-x64), so
// `npm install` leaves the other platforms' optional packages (e.g. @swc/core-darwin-arm64) out of
// package-lock.json, and `npm ci` then refuses the lock as "not in sync". This adds the missing
// optional entries with their os/cpu/libc, so `npm ci` accepts the lock everywhere and skips
// (never fetches) packages of other platforms. Run it after `npm install`.
const fs = require('node:fs');
const path = require('node:path');

const lockPath = path.resolve(__dirname, '../../package-lock.json');
const lock = JSON.parse(fs.readFileSync(lockPath, 'utf8'));
const OS = ['darwin', 'linux', 'win32', 'freebsd', 'android', 'openbsd', 'netbsd', 'sunos', 'aix', 'openharmony'];
const CPU = { arm64: 'arm64', aarch64: 'arm64', x64: 'x64', x86_64: 'x64', ia32: 'ia32', arm: 'arm', armv7: 'arm', ppc64: 'ppc64', ppc64le: 'ppc64', s390x: 's390x', riscv64: 'riscv64', loong64: 'loong64', wasm32: 'wasm32' };

function platformOf(name) {
  const tokens = name.split('/').pop().split('-');
  const os = tokens.find((t) => OS.includes(t));
  const cpuToken = tokens.find((t) => CPU[t]);
  if (!os && !cpuToken) return null;
  const entry = {};
  if (os) entry.os = [os];
  if (cpuToken) entry.cpu = [CPU[cpuToken]];
  if (tokens.some((t) => t.startsWith('musl'))) entry.libc = ['musl'];
  else if (os === 'linux' && tokens.some((t) => t === 'gnu' || t.startsWith('gnueabi'))) entry.libc = ['glibc'];
  return entry;
}

let added = 0;
for (const [location, pkg] of Object.entries(lock.packages)) {
  for (const [dep, spec] of Object.entries(pkg.optionalDependencies ?? {})) {
    const base = location ? `${location}/node_modules/` : 'node_modules/';
    // npm resolves from the nearest node_modules up the tree; hoisted entries live at the root.
    if (lock.packages[`${base}${dep}`] || lock.packages[`node_modules/${dep}`]) continue;
    const platform = platformOf(dep);
    if (!platform || !/^\d+\.\d+\.\d+/.test(spec)) continue;
    lock.packages[`node_modules/${dep}`] = { version: spec, ...(pkg.dev ? { dev: true } : {}), optional: true, ...platform };
    added++;
  }
}
lock.packages = Object.fromEntries(Object.entries(lock.packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a < b ? -1 : a > b ? 1 : 0)));
fs.writeFileSync(lockPath, JSON.stringify(lock, null, 2) + '\n');
console.log(`added ${added} optional platform entries to package-lock.json`);
