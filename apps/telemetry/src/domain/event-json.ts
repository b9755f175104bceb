// Reading event payloads. Producers publish the proto3 JSON form of their events.proto messages
// (camelCase keys, enums as their full names, empty fields left out); the domain reads that JSON
// as plain objects, so it stays free of the generated code. A snake_case key is accepted too, so
// a payload written by hand (or an older producer) is read, and redacted, the same way.

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `contractId` → `contract_id`. */
export function snakeCase(key: string): string {
  return key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/** The field under its camelCase name or its snake_case name. */
export function field(o: unknown, key: string): Json | undefined {
  if (!isObject(o)) return undefined;
  if (key in o) return o[key];
  const snake = snakeCase(key);
  return snake in o ? o[snake] : undefined;
}

export function objectField(o: unknown, key: string): JsonObject | undefined {
  const v = field(o, key);
  return isObject(v) ? v : undefined;
}

/** A non-empty string field, else undefined. */
export function stringField(o: unknown, key: string): string | undefined {
  const v = field(o, key);
  return typeof v === 'string' && v !== '' ? v : undefined;
}

export function stringsField(o: unknown, key: string): string[] {
  const v = field(o, key);
  return Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : [];
}

export function boolField(o: unknown, key: string): boolean {
  return field(o, key) === true;
}

/** Removes the field under both spellings. */
export function dropField(o: JsonObject, key: string): void {
  delete o[key];
  delete o[snakeCase(key)];
}

/**
 * An enum value as its lower-case wire name: `CONTRACT_STATUS_SETTLED` (prefix `CONTRACT_STATUS_`)
 * or `settled` → `settled`; undefined when absent.
 */
export function enumField(o: unknown, key: string, prefix: string): string | undefined {
  const v = stringField(o, key);
  if (v === undefined) return undefined;
  return (v.startsWith(prefix) ? v.slice(prefix.length) : v).toLowerCase();
}

/** An RFC 3339 timestamp field as a Date; undefined when absent or unreadable. */
export function timeField(o: unknown, key: string): Date | undefined {
  const v = stringField(o, key);
  if (v === undefined) return undefined;
  const d = new Date(v);
  return Number.isNaN(d.getTime()) ? undefined : d;
}

/** A deep copy (payloads are JSON already, so this is exact). */
export function cloneJson<T extends Json>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}
