/**
 * Personal data in anything that may be stored: email addresses, phone numbers and the account
 * name in local paths, as hits for redact to mask (after the secrets, which claim their spans first).
 */
import { emailSpans } from './personal-emails.js';
import type { PersonalHit } from './personal-kinds.js';
import { userPathSpans } from './personal-paths.js';
import { phoneSpans } from './personal-phones.js';

export type { PersonalHit, PersonalKind } from './personal-kinds.js';
export { isOneOffPointer } from './personal-paths.js';

type Span = Pick<PersonalHit, 'start' | 'end'>;

export function findPersonal(text: string, claimed: Span[]): PersonalHit[] {
  const hits: PersonalHit[] = [];
  // Emails before phones: the digits of `jane.1234567@acme.io` belong to the address.
  for (const hit of [...emailSpans(text), ...userPathSpans(text), ...phoneSpans(text)]) {
    if (claimed.some((c) => c.start < hit.end && hit.start < c.end)) continue;
    hits.push(hit);
    claimed.push(hit);
  }
  return hits;
}
