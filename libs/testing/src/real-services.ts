/** CI sets REQUIRE_REAL_SERVICES=1: a test that would skip for lack of a service must fail instead. */
export function realServicesRequired(env: NodeJS.ProcessEnv = process.env): boolean {
  return env['REQUIRE_REAL_SERVICES'] === '1';
}
