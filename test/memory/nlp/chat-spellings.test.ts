/** Chat spellings are read as the words they stand for, in prose only: command text is never rewritten. */
import { describe, expect, it } from 'vitest';
import { analyze } from '../../../src/memory/nlp/index.js';

const text = (s: string): string =>
  analyze(s)
    .map((x) => x.text)
    .join(' ');

describe('chat spellings', () => {
  it.each([
    'Always authenticate with curl -u deploy:[REDACTED:password] against staging.',
    'Push the branch with git push -u origin main before opening the PR.',
    'Use sort -u on the list and ls -im for inodes.',
    'The helper lives at lib/u and reads $u from the environment.',
  ])('leave command text as it is: %s', (s) => {
    expect(text(s)).toBe(s);
  });

  it('reads a double quote typed for the apostrophe of a negation as the apostrophe', () => {
    expect(text('DON"T EDIT ANYTHING.')).toBe("DON'T EDIT ANYTHING.");
    expect(text('we can"t ship it yet')).toBe("we can't ship it yet");
    // A quoted word is left as it is.
    expect(text('Name it "tokens" in the config.')).toBe('Name it "tokens" in the config.');
  });

  it('reads "im" as "I\'m" only beside an English word of its own: German "im" stays the person\'s word', () => {
    for (const s of [
      'Datumsangaben immer im ISO-Format.',
      'Schreib die Tests im Ordner tests, nicht im src.',
      'Im Backend nie console.log verwenden.',
      'Schreib was im Ordner liegt.',
    ])
      expect(text(s)).toBe(s);
    expect(text('im not sure this is right')).toBe("I'm not sure this is right");
  });

  it('still reads a chat spelling in prose as its word', () => {
    const tokens = analyze('can u run the tests').flatMap((x) => x.tokens.map((t) => t.lower));
    expect(tokens).toContain('you');
  });
});
