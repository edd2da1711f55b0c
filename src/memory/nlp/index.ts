export { analyze } from './analyze.js';
export { isEnglish, looksForeign } from './language.js';
export type { Pos, Sentence, Token, TokenKind } from './types.js';
