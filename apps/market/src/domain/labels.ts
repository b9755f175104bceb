import { invalid } from './validation';

// A contract's labels and input refs: public, caller-defined, stored and returned as given
// (the workflows service finds its shard contracts in market events by their labels).

export const LABEL_KEY = /^[a-z0-9_.-]{1,64}$/;
export const MAX_LABELS = 16;
export const MAX_LABEL_VALUE = 256;
export const MAX_INPUT_REFS = 64;
export const MAX_INPUT_REF = 512;
/** Control characters (NUL included: PostgreSQL text and jsonb cannot hold it). */
const CONTROL = /\p{Cc}/u;

const clip = (s: string) => JSON.stringify([...s].slice(0, 64).join(''));

/** Not empty, at most `max` code points, no control character. */
function printable(s: string, max: number): boolean {
  const length = [...s].length;
  return length >= 1 && length <= max && !CONTROL.test(s);
}

/** ≤ 16 labels; key 1–64 of [a-z0-9_.-]; value 1–256 printable characters. Else 400 validation_failed. */
export function labels(value: Readonly<Record<string, string>> | undefined | null): Record<string, string> {
  const entries = Object.entries(value ?? {});
  if (entries.length > MAX_LABELS) invalid('labels', `at most ${MAX_LABELS} labels`);
  const out: Record<string, string> = {};
  for (const [k, val] of entries) {
    if (!LABEL_KEY.test(k)) invalid('labels', `label key ${clip(k)} must be 1-64 characters of a-z, 0-9, "_", "." and "-"`);
    if (typeof val !== 'string' || !printable(val, MAX_LABEL_VALUE)) {
      invalid('labels', `label ${k} must be 1-${MAX_LABEL_VALUE} printable characters (no control characters)`);
    }
    out[k] = val;
  }
  return out;
}

/** ≤ 64 refs of 1–512 printable characters each, order kept. Else 400 validation_failed. */
export function inputRefs(value: readonly string[] | undefined | null): string[] {
  const list = value ?? [];
  if (list.length > MAX_INPUT_REFS) invalid('input_refs', `at most ${MAX_INPUT_REFS} input_refs`);
  list.forEach((r, i) => {
    if (typeof r !== 'string' || !printable(r, MAX_INPUT_REF)) {
      invalid('input_refs', `input_refs[${i}] must be 1-${MAX_INPUT_REF} printable characters (no control characters)`);
    }
  });
  return [...list];
}
