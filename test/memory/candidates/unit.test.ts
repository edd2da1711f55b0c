/** The one place a unit is made: a passage of a message cut into units, with its place and marks. */
import { describe, expect, it } from 'vitest';
import { sentenceTexts, unitsOfPassage } from '../../../src/memory/candidates/unit.js';

const place = { messageId: 'm1', at: '2026-01-02T03:04:05Z', turn: 3 };

describe('unitsOfPassage', () => {
  it('cuts prose into sentences, each with the place it was said', () => {
    const units = unitsOfPassage({ text: 'Use pnpm in this repo. Never commit the build folder.', source: 'typed' }, place);
    expect(units.map((u) => u.text)).toEqual(['Use pnpm in this repo.', 'Never commit the build folder.']);
    for (const u of units) expect(u).toMatchObject({ source: 'typed', messageId: 'm1', at: place.at, turn: 3, document: false, investigative: false });
  });

  it('keeps an example with the sentence it illustrates, in any language, within one block', () => {
    const texts = (text: string) => unitsOfPassage({ text, source: 'typed' }, place).map((u) => u.text);
    expect(texts('Always pin versions. For example, use lodash 4.17.21 rather than ^4.')).toEqual([
      'Always pin versions. For example, use lodash 4.17.21 rather than ^4.',
    ]);
    expect(texts('Never log secrets. E.g. mask tokens before printing a request.')).toEqual(['Never log secrets. E.g. mask tokens before printing a request.']);
    expect(texts('Datumsangaben immer im ISO-Format. Zum Beispiel 2026-01-31.')).toEqual(['Datumsangaben immer im ISO-Format. Zum Beispiel 2026-01-31.']);
    expect(texts('日付は必ずISO 8601で書くこと。例えば2026-01-31のように。')).toEqual(['日付は必ずISO 8601で書くこと。例えば2026-01-31のように。']);
    // Nothing before it to illustrate: it stands alone, as does the sentence after it.
    expect(texts('For example, use lodash 4.17.21. Keep the lockfile.')).toEqual(['For example, use lodash 4.17.21.', 'Keep the lockfile.']);
    // A bullet of its own is not the sentence before it.
    expect(texts('Pin versions:\n- use exact versions\n- for example lodash 4.17.21')).not.toContainEqual(expect.stringMatching(/versions.*lodash/));
  });

  it('leaves an example apart when the two together would be cut into clauses', () => {
    const long = `When you touch anything under the migrations folder, run make check and the whole integration suite before you push, and say in the pull request description which of the tables changed and why.`;
    const units = unitsOfPassage({ text: `${long} For example, the users table.`, source: 'typed' }, place).map((u) => u.text);
    expect(units).toEqual([long, 'For example, the users table.']);
  });

  it('joins the sentences of an unspaced script as they were written, and keeps the space before an arrow', () => {
    const [u] = unitsOfPassage({ text: '技术栈你有偏好吗？你熟悉 Vue3，或者你想尝试别的？ → Tauri + Vue3', source: 'answer', whole: true }, place);
    expect(u?.text).toBe('技术栈你有偏好吗？你熟悉 Vue3，或者你想尝试别的？ → Tauri + Vue3');
  });

  it('keeps a whole passage as one unit, tidied unless it is kept verbatim', () => {
    const text = 'Which cache?   →  ristretto';
    const [tidied] = unitsOfPassage({ text, source: 'answer', whole: true }, place);
    const [verbatim] = unitsOfPassage({ text, source: 'answer', whole: true, verbatim: true }, place);
    expect(tidied?.text).not.toBe(text);
    expect(verbatim?.text).toBe(text);
  });

  it('scopes every unit to the request when the passage opens by asking, and only then', () => {
    const asks = unitsOfPassage({ text: 'Why does the deploy fail? Do not change any code.', source: 'typed', asking: true }, place);
    expect(asks.map((u) => u.investigative)).toEqual([true, true]);
    const tells = unitsOfPassage({ text: 'Do not change any code. Why does the deploy fail?', source: 'typed', asking: true }, place);
    expect(tells.map((u) => u.investigative)).toEqual([false, false]);
    const unasked = unitsOfPassage({ text: 'Why does the deploy fail? Do not change any code.', source: 'typed' }, place);
    expect(unasked.map((u) => u.investigative)).toEqual([false, false]);
  });

  it('gives every unit the passage marks, and a bullet its list intro', () => {
    const units = unitsOfPassage(
      { text: 'Workflow:\n- run the tests\n- open a PR', source: 'feedback', marks: { rejects: 'the plan "x"', document: true } },
      place,
    );
    expect(units.length).toBeGreaterThan(0);
    for (const u of units) expect(u).toMatchObject({ rejects: 'the plan "x"', document: true });
    expect(units.some((u) => u.bullet && u.intro !== undefined)).toBe(true);
  });

  it('drops a slash command that leads a prompt, as sentenceTexts does', () => {
    expect(sentenceTexts('/review check the auth module.')).toEqual(['check the auth module.']);
    expect(unitsOfPassage({ text: '/review check the auth module.', source: 'typed' }, place).map((u) => u.text)).toEqual(['check the auth module.']);
  });

  it('reads a numbered list typed on one line as its items, never running a sentence into the next number', () => {
    expect(sentenceTexts('1. You can now fire your fund manager 2. humans miss entries, agents do not 3. the market breaks')).toEqual([
      'You can now fire your fund manager',
      'humans miss entries, agents do not',
      'the market breaks',
    ]);
    expect(sentenceTexts('Steps: 1) add the model 2) wire the API')).toEqual(['Steps:', 'add the model', 'wire the API']);
    // One sentence counting its parts, and numbers that are no list, stay as written.
    expect(sentenceTexts('I built: 1) the contract with buy_shares, 2) the frontend, 3) the hooks.')).toHaveLength(1);
    expect(sentenceTexts('Use Node 18. Then bump it to 20.')).toEqual(['Use Node 18.', 'Then bump it to 20.']);
  });
});
