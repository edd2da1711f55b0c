export { analyze } from './analyze.js';
export { isEnglish } from './language.js';
export type { Pos, Sentence, Token, TokenKind } from './types.js';
