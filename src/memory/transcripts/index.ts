/** Public surface of the transcript parsers. */
export { isContinuationText } from './continuation.js';
export { detectTranscriptFormat } from './detect.js';
export { MAX_ARRAY_BYTES, messagesOfLine, type ParseOptions, parseTranscript, readTranscript, resumePoint } from './read.js';
export { readLines } from './lines.js';
export { commandGist } from './tool-input.js';
export type { ParseResult, TranscriptFormat, TranscriptKind, TranscriptMessage, TranscriptParse, TranscriptRole, TranscriptStats } from './types.js';
