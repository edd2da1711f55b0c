/** Sentence boundaries of the language analysis. */
import { describe, expect, it } from 'vitest';
import { analyze } from '../../../src/memory/nlp/index.js';

describe('analyze', () => {
  it('ends no sentence at a "?" inside a URL or a path, and still at a question mark', () => {
    const text = 'Add GET /api/orders/{id}/invoice?format=pdf that streams the invoice. Does it stream? Yes.';
    const sentences = analyze(text);
    expect(sentences.map((s) => s.text)).toEqual(['Add GET /api/orders/{id}/invoice?format=pdf that streams the invoice.', 'Does it stream?', 'Yes.']);
    // The held mark is given back in the tokens too, and a second call reads the same.
    expect(sentences[0]?.tokens.map((t) => t.text).join(' ')).toContain('?');
    expect(sentences[0]?.tokens.some((t) => t.text.includes('\uFF1F'))).toBe(false);
    expect(analyze(text).map((s) => s.text)).toEqual(sentences.map((s) => s.text));
  });

  it('ends no sentence at the "!" of a macro, and still at an exclamation mark', () => {
    const sentences = analyze('no println!, everything goes through tracing. Use vec![] for empty lists! Thanks.');
    expect(sentences.map((s) => s.text)).toEqual(['no println!, everything goes through tracing.', 'Use vec![] for empty lists!', 'Thanks.']);
    expect(sentences.flatMap((s) => s.tokens).some((t) => t.text.includes('\uFF01'))).toBe(false);
  });

  it("ends a sentence after a command's option, which is one word and no initial", () => {
    const sentences = analyze('We test with pytest -q. Please add barcode scanning. Run cargo build --release before you ship.');
    expect(sentences.map((s) => s.text)).toEqual(['We test with pytest -q.', 'Please add barcode scanning.', 'Run cargo build --release before you ship.']);
    expect(sentences[2]?.tokens.map((t) => t.text)).toContain('--release');
    // A dash between words or before a number is no option.
    expect(analyze('Keep it short - no more than -5 dB.').map((s) => s.text)).toEqual(['Keep it short - no more than -5 dB.']);
  });

  it('reads another language the same way: the query string stays inside its sentence', () => {
    const sentences = analyze('Mets le lien https://ex.fr/a?b=1 dans le README. Merci.');
    expect(sentences.map((s) => s.text)).toEqual(['Mets le lien https://ex.fr/a?b=1 dans le README.', 'Merci.']);
  });
});
