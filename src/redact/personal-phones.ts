/**
 * Phone numbers. The shapes are found here, and libphonenumber-js (Google's numbering plans, kept
 * up to date upstream) says whether the digits are a number that can exist:
 * - international: `+44 20 7946 0958`, `+1-415-555-0132`, `0049 30 …`, valid in the plan of the
 *   country they name;
 * - national: North American `(415) 555-0132` / `415-555-0132` / `415.555.0132`, or a trunk-0
 *   number in groups (`06 12 34 56 78`, `020 7946 0958`, `0151 2345678`) valid in one of the common
 *   plans below; pairs of digits alone (`06 12 34 56 78`) and a bare run of digits count only next
 *   to a word that says it is a phone number (phone, mobile, call, number…).
 * Versions, dates, times, IPs, ports, hashes and ids are not numbers in groups of those shapes, or
 * are glued to letters, dots or colons.
 */
import { isValidPhoneNumber, type CountryCode } from 'libphonenumber-js/max';
import type { PersonalHit } from './personal-kinds.js';

/** Digits in groups; never starting or ending inside a word, a version, an address or a path. */
const RUN = /(?<![\w.,:/#@+=$-])(?:\+|\b00)?\(?\d[\d ().-]{5,22}\d(?![\w@]|[.,:/-]\d)/g;
/** Plans tried for a number written without its country code. */
const NATIONAL: CountryCode[] = ['US', 'GB', 'FR', 'DE', 'IN', 'AU', 'ES', 'IT', 'NL'];
const NANP = /^(?:\(\d{3}\) ?|\d{3}[ .-])\d{3}[ .-]\d{4}$/;
const TRUNK = /^0\d+(?:[ -]\d+)+$|^\(0\d+\) ?\d+(?:[ -]\d+)*$/;
const PHONE_WORD =
  /\b(?:phone|mobile|cell|cellphone|tel|telephone|call|ring|sms|text me|whats ?app|signal|fax|landline|reach me|contact|number)\b[^.\n]{0,25}$/i;
/** Dates and times are grouped digits too. */
const DATE = /^(?:\d{4}[-./]\d{1,2}[-./]\d{1,2}|\d{1,2}[-./]\d{1,2}[-./]\d{2,4})(?:[ T]\d|$)/;

function isPhone(raw: string, context: string): boolean {
  const digits = raw.replace(/\D/g, '');
  if (digits.length < 7 || digits.length > 15 || DATE.test(raw)) return false;
  if (raw.startsWith('+') || raw.startsWith('00')) return digits.length >= 8 && isValidPhoneNumber(raw.startsWith('00') ? `+${raw.slice(2)}` : raw);
  const named = PHONE_WORD.test(context);
  // Pairs of digits alone (`02 04 06 08 10`) are as often a list as a number: they need the word.
  const trunk = TRUNK.test(raw) && (named || /\d{3}/.test(raw));
  const shaped = NANP.test(raw) ? ['US' as const] : trunk || (named && /^\d+$/.test(raw)) ? NATIONAL : [];
  return shaped.some((country) => isValidPhoneNumber(raw, country));
}

export function phoneSpans(text: string): PersonalHit[] {
  if (!/\d\d/.test(text)) return [];
  const spans: PersonalHit[] = [];
  for (const m of text.matchAll(RUN)) {
    // A run may end in separators or an unclosed bracket: the number is what lies between.
    const raw = m[0].replace(/[ (.-]+$/, '').replace(/^\((?=[^)]*$)/, '');
    const start = m.index + m[0].indexOf(raw);
    if (isPhone(raw, text.slice(Math.max(0, start - 40), start))) spans.push({ kind: 'phone', start, end: start + raw.length });
  }
  return spans;
}
