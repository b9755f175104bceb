import { createLogger, type Logger } from '@exchange/platform';

/** Silent unless TEST_LOG=1, so test output stays readable and debugging needs no code change. */
export const testLogger: Logger = createLogger({
  name: 'test',
  level: process.env['TEST_LOG'] === '1' ? (process.env['LOG_LEVEL'] ?? 'debug') : 'silent',
});
