#!/usr/bin/env node
// Placeholder until the CLI lands.
console.error('exchange CLI: not built yet');
process.exit(1);
