import { problem } from '../../plugins/app/problem';

// "Exactly one of a and b": a rule a strict JSON schema cannot state while the body stays one
// object (`additionalProperties: false`, as every body of /openapi.json is), so routes check it.

/** 400 `validation_failed` naming both fields unless exactly one is present. */
export function requireExactlyOne(body: Record<string, unknown>, a: string, b: string): void {
  if ((body[a] === undefined) !== (body[b] === undefined)) return;
  throw problem(400, 'validation_failed', `send exactly one of ${a} and ${b}`, {
    errors: [{ pointer: `/${body[a] === undefined ? a : b}`, message: `exactly one of ${a} and ${b} is required` }],
  });
}
