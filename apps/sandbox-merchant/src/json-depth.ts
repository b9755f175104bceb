/**
 * Deepest nesting of arrays/objects in JSON text (brackets inside strings ignored), read without
 * recursion: bodies nested deeper than any UCP message are refused before anything recursive
 * (canonical JSON, schema validation) walks them.
 */
export function jsonDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 /* [ */ || c === 123 /* { */) max = Math.max(max, ++depth);
    else if (c === 93 /* ] */ || c === 125 /* } */) depth--;
  }
  return max;
}
