/** The kinds of personal data a mask names: `[REDACTED:email]`, `[REDACTED:phone]`, `[REDACTED:user]`. */
export type PersonalKind = 'email' | 'phone' | 'user';

/** Where personal data was, in the input text (the value itself is deliberately not kept). */
export interface PersonalHit {
  kind: PersonalKind;
  start: number;
  end: number;
}
