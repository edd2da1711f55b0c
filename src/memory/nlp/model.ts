/**
 * wink-nlp with its English lite model, loaded on first use (about 90 ms) so a daemon that never
 * ingests never pays for it.
 */
import winkNLP, { type ItsHelpers, type WinkMethods } from 'wink-nlp';
import model from 'wink-eng-lite-web-model';

let loaded: { nlp: WinkMethods; its: ItsHelpers } | undefined;

export function wink(): { nlp: WinkMethods; its: ItsHelpers } {
  if (loaded === undefined) {
    // Sentence boundaries, negation and parts of speech only: entity and sentiment passes cost half
    // the time and the extractor does not read them.
    const nlp = winkNLP(model, ['sbd', 'negation', 'pos']);
    loaded = { nlp, its: nlp.its };
  }
  return loaded;
}
