/**
 * Minimal CSV reader for the vendored seed files: a header row, comma-separated fields, no quoting
 * (the seed files have none; a quoted field is refused rather than misread).
 */
export function parseCsv(text: string): Record<string, string>[] {
  const lines = text.split(/\r?\n/).filter((line) => line.trim() !== '');
  if (lines.length === 0) return [];
  const header = lines[0].split(',').map((h) => h.trim());
  return lines.slice(1).map((line, index) => {
    if (line.includes('"')) throw new Error(`csv line ${index + 2}: quoted fields are not supported`);
    const fields = line.split(',');
    if (fields.length !== header.length) {
      throw new Error(`csv line ${index + 2}: ${fields.length} fields, expected ${header.length}`);
    }
    return Object.fromEntries(header.map((name, i) => [name, fields[i].trim()]));
  });
}
