/**
 * Charset and entropy checks: does a token look generated (a key, a token) or written (a word, an
 * identifier, a hash a tool printed)? Used on the body after a known prefix (`ghp_…`) and on long
 * tokens near a secret word.
 */

/** Shannon entropy in bits per character. */
export function entropy(s: string): number {
  const counts = new Map<string, number>();
  for (const ch of s) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let h = 0;
  for (const n of counts.values()) {
    const p = n / s.length;
    h -= p * Math.log2(p);
  }
  return h;
}

/** `XXXXXXXX`, `xxxx-xxxx`, `0000…`: a stand-in, not a value. */
export function isFiller(body: string): boolean {
  return /^(.)\1*$/.test(body.replace(/[-_.]/g, '')) || /^(?:x+|\*+|\.+|0+|1234567890?)$/i.test(body);
}

/**
 * A body after a provider prefix is generated when it is not filler and varies enough: random
 * base62 of 12 chars has ~3.4 bits per char, a placeholder or a word repeated far less.
 */
export function generatedBody(body: string): boolean {
  const core = body.replace(/[-_.]/g, '');
  if (core.length < 8 || isFiller(core)) return false;
  return entropy(core) >= Math.min(3, Math.log2(core.length) - 0.6);
}

const VOWEL = /[aeiou]/i;

/**
 * How much of a token is made of words: its camelCase, snake_case and kebab-case parts of 4+
 * letters with a vowel (`Refresh`, `token`, `Formatter`). Random base62 rarely holds one such part.
 */
export function wordShare(token: string): number {
  const parts = token
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^A-Za-z]+/);
  const letters = parts.filter((p) => p.length >= 4 && VOWEL.test(p) && !/[bcdfghjklmnpqrstvwxz]{4}/i.test(p));
  return letters.reduce((n, p) => n + p.length, 0) / token.replace(/[-_.]/g, '').length;
}

const HEX_ONLY = /^[0-9a-f]+$|^[0-9A-F]+$/;

/**
 * A long token with no prefix looks generated: letters and digits mixed in several places, high
 * entropy, and not mostly words. Hex counts only at 32+ chars (shorter is a short SHA or a colour).
 */
export function looksGenerated(token: string): { generated: boolean; hex: boolean } {
  const core = token.replace(/[-_.]/g, '');
  const hex = HEX_ONLY.test(core);
  if (core.length < 16 || !/[A-Za-z]/.test(core) || isFiller(core)) return { generated: false, hex };
  if (hex) return { generated: core.length >= 32 && entropy(core) >= 3.2, hex };
  if (entropy(core) < Math.min(3.5, Math.log2(core.length) - 0.7)) return { generated: false, hex };
  const words = wordShare(token);
  // Digits in several places, or (with no digit to speak of) case flipping far more than CamelCase does.
  const digitRuns = core.match(/\d+/g)?.length ?? 0;
  const caseFlips = core.match(/[a-z](?=[A-Z])|[A-Z](?=[a-z])/g)?.length ?? 0;
  const mixed = (digitRuns >= 2 && words < 0.4) || (core.length >= 20 && caseFlips / core.length >= 0.3 && words < 0.25);
  return { generated: mixed, hex };
}
