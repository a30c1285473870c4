/**
 * "2025-03-01T09:00" read as a wall-clock time in `timeZone` → the UTC instant. Strings with an offset or Z
 * are absolute already. Uses Intl only (no tz library): the zone's offset at that instant, corrected once for
 * DST changes between the guess and the result.
 */
export function zonedLocalToDate(value: string, timeZone: string): Date {
  if (/(Z|[+-]\d{2}:\d{2})$/.test(value)) return new Date(value);
  const asUtc = new Date(`${value}Z`);
  if (Number.isNaN(asUtc.getTime())) return asUtc;
  const first = new Date(asUtc.getTime() - offsetMs(asUtc, timeZone));
  return new Date(asUtc.getTime() - offsetMs(first, timeZone));
}

function offsetMs(instant: Date, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(instant);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const wall = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  return wall - Math.floor(instant.getTime() / 1000) * 1000;
}
