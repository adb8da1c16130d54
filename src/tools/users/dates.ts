import { ToolError } from '../tool-error.js';

const ISO_8601 = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/i;

/**
 * An ISO 8601 date or date-time as epoch ms. A date alone means its first instant, and a time
 * without an offset is UTC, as WordPress reports registration dates in UTC. Impossible dates
 * (2024-02-30) are refused rather than rolled over as `Date.parse` does.
 */
export function parseIsoDate(value: string, param: string): number {
  const match = ISO_8601.exec(value.trim());
  const fail = () =>
    new ToolError('invalid_date', `${param} "${value}" is not an ISO 8601 date.`, {
      hint: 'Use e.g. 2024-05-01 or 2024-05-01T14:30:00Z (UTC when no offset is given).',
    });
  if (!match) throw fail();
  const [, y, mo, d, h = '00', mi = '00', s = '00', fraction = '', offset = 'Z'] = match;
  const day = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d)));
  if (day.getUTCFullYear() !== Number(y) || day.getUTCMonth() !== Number(mo) - 1 || day.getUTCDate() !== Number(d))
    throw fail();
  if (Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) throw fail();
  const zone = offset.toUpperCase() === 'Z' ? 'Z' : offset.replace(/^([+-]\d{2}):?(\d{2})$/, '$1:$2');
  const time = Date.parse(`${y}-${mo}-${d}T${h}:${mi}:${s}${fraction.slice(0, 4)}${zone}`);
  if (Number.isNaN(time)) throw fail();
  return time;
}
