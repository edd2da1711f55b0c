/** A long sentence read as its clauses, when one of them may be what lasts. */
import { describe, expect, it } from 'vitest';
import { clausesOf } from '../../../src/memory/candidates/clauses.js';
import { unitsOfPassage } from '../../../src/memory/candidates/unit.js';

const unit = (text: string) => {
  const [u] = unitsOfPassage({ text, source: 'typed', whole: true }, { messageId: 'm', turn: 0 });
  if (u === undefined) throw new Error('no unit');
  return u;
};

describe('clausesOf', () => {
  it('cuts a long English sentence at its conjunctions, each clause a unit of the same place', () => {
    const u = unit('I renamed the folder to notes because the old name was confusing, whereas this is really a personal knowledge base for my own use');
    const clauses = clausesOf(u);
    expect(clauses.map((c) => c.text)).toEqual([
      'I renamed the folder to notes',
      'the old name was confusing',
      'this is really a personal knowledge base for my own use',
    ]);
    for (const c of clauses) expect(c).toMatchObject({ messageId: 'm', source: 'typed' });
  });

  it('leaves a sentence with no clause break, or a short one, whole', () => {
    expect(clausesOf(unit('Always run the full test suite before you push anything to the main branch of this repository'))).toEqual([]);
    expect(clausesOf(unit('Use pnpm, because npm is slow'))).toEqual([]);
  });

  it('cuts at a break outside an aside, never at one inside it', () => {
    const u = unit('Keep the config in one file (the old one, because it is read at boot); never split it into parts across the repository tree again');
    expect(clausesOf(u).map((c) => c.text)).toEqual([
      'Keep the config in one file (the old one, because it is read at boot)',
      'never split it into parts across the repository tree again',
    ]);
  });

  it('keeps a rule in another language whole: its condition would be cut from it', () => {
    expect(clausesOf(unit('Wenn du die Migrationen änderst, führe bitte zuerst make check aus und dann erst die Tests, damit nichts kaputt geht'))).toEqual([]);
  });
});
