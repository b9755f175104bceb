// ISO 8601 durations of the templates' default deadlines ("P3D", "PT12H", "P1W", "P1M").

const DURATION = /^P(?!$)(?:(\d+)Y)?(?:(\d+)M)?(?:(\d+)W)?(?:(\d+)D)?(?:T(?=\d)(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?$/;

export interface IsoDuration {
  years: number;
  months: number;
  weeks: number;
  days: number;
  hours: number;
  minutes: number;
  seconds: number;
}

/** The duration's parts, or null when the text is not an ISO 8601 duration (integers only). */
export function parseIsoDuration(text: string): IsoDuration | null {
  const m = DURATION.exec(text);
  if (!m) return null;
  const n = (i: number) => (m[i] === undefined ? 0 : Number(m[i]));
  return { years: n(1), months: n(2), weeks: n(3), days: n(4), hours: n(5), minutes: n(6), seconds: n(7) };
}

/**
 * `from` plus the duration, in UTC calendar arithmetic: years and months move the calendar date
 * (31 Jan + P1M = 3 Mar, as Date.setUTCMonth does), the rest are exact elapsed time.
 */
export function addIsoDuration(from: Date, text: string): Date {
  const d = parseIsoDuration(text);
  if (d === null) throw new Error(`not an ISO 8601 duration: ${text}`);
  const out = new Date(from.getTime());
  if (d.years !== 0 || d.months !== 0) out.setUTCMonth(out.getUTCMonth() + d.years * 12 + d.months);
  const ms = ((((d.weeks * 7 + d.days) * 24 + d.hours) * 60 + d.minutes) * 60 + d.seconds) * 1000;
  return new Date(out.getTime() + ms);
}
