// npm run ledger:check [-- --url <gateway> --token <operator token> | --grpc <host:port>] [--json]
// Asks wallet-ledger to reconcile its books (CheckLedger) and prints the report.
// Exit 0: consistent; 1: discrepancies; 2: the ledger cannot be reached (or a usage error).
import { run } from './src/run';

run(process.argv.slice(2), process.env, {
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
}).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`ledger:check: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exitCode = 2;
  },
);
