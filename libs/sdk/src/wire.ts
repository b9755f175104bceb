// The gateway's wire types, generated from /openapi.json into generated/api-types.ts
// (`npx tsx tools/codegen/sdk-types.ts`): the SDK's resource types are aliases of these, and
// every request body it builds is checked against the operation's request type with `satisfies`.
export type * as api from './generated/api-types';

/**
 * `T` with some members stated more precisely than the document states them — e.g. a string the
 * gateway fills from a fixed set, or an `unknown` that is always a JSON object. Each override must
 * name a member of `T` and fit its wire type, so a gateway change that contradicts one fails to compile.
 */
export type Narrow<T, O extends { [K in keyof O]: K extends keyof T ? T[K] : never }> = Omit<T, keyof O> & O;
