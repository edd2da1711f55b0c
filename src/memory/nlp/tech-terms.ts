/**
 * Counts what only a codebase has: file names and paths, code spans, identifiers (snake_case,
 * camelCase, dotted module names), commands with flags, environment variables, versions, ports,
 * URLs, and the names of common tools. A sentence that names such things is about a project.
 */
import { AMBIGUOUS_TOOLS, TOOL_CATEGORY } from './tool-lexicon.js';

const PATTERNS: readonly RegExp[] = [
  /`[^`\n]+`/g, // code spans
  /\bhttps?:\/\/\S+/g,
  /(?:^|[\s(])(?:~|\.{1,2})?\/?[\w@.-]+\/[\w@./-]*/g, // paths, "src/" included
  /\b[\w-]+\.(?:ts|tsx|js|jsx|mjs|json|ya?ml|toml|md|py|go|rs|rb|ex|exs|sh|sql|css|html|vue|svelte|java|kt|swift|c|h|cpp|env|lock|txt)\b/gi,
  /\b[a-z]+_[a-z0-9_]+\b/g, // snake_case
  /\b[a-z]+[A-Z][A-Za-z0-9]+\b|\b[A-Z][a-z]+[A-Z][A-Za-z0-9]*\b/g, // camelCase, PascalCase
  /\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b/g, // ENV_VARS
  /(?:^|\s)--?[a-z][\w-]*/g, // flags
  /\bv?\d+\.\d+(?:\.\d+)?\b/g, // versions
  /\b(?:port\s+)?\d{4,5}\b(?=\s|$|[,.;)])/g,
  /\b[A-Z]{2,}[a-z]?\b/g, // acronyms: CI, SQL, LTR, API
  /\b[\w-]+\.(?:io|com|dev|app|net|org|sh|cloud|co|ai|run)\b/g, // domains
];

export function countTechTerms(text: string): number {
  let n = 0;
  for (const re of PATTERNS) {
    re.lastIndex = 0;
    n += (text.match(re) ?? []).length;
  }
  for (const w of text.match(/[A-Za-z][\w.+-]*/g) ?? []) {
    const lower = w.toLowerCase().replace(/[.+-]+$/, '');
    if (TOOL_CATEGORY.has(lower) && (!AMBIGUOUS_TOOLS.has(lower) || w !== lower)) n++;
  }
  return n;
}
