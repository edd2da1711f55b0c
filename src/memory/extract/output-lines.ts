/**
 * Recognises lines a person pasted rather than wrote: shell sessions, logs, stack traces, test
 * reports, file listings, tables, diffs. They are evidence about the moment, never memories.
 */

/** Each pattern alone marks a line as pasted output. Case matters where tools shout (PASS, ERROR). */
const OUTPUT_LINE: readonly RegExp[] = [
  // Shell prompts and quotes (`> ` also covers quoted replies), markdown headings.
  /^\s*(?:\$|>|%|#+|❯|➜|λ|PS [A-Z]:\\?[^>]*>)\s/,
  // Timestamps that open log lines.
  /^\s*\[?\d{4}-\d{2}-\d{2}[T ]\d{1,2}:\d{2}/,
  /^\s*\[?\d{1,2}:\d{2}:\d{2}\b/,
  // Stack frames: JS, Python, Java/Go-ish.
  /^\s*at\s+(?:async\s+)?\S+.*(?:\(|:\d+)/,
  /^\s*File ".+", line \d+/,
  /^\s*Traceback \(most recent call last\)/,
  /^\s*(?:goroutine \d+|panic:|thread '.+' panicked)/,
  /^\s*(?:Caused by|\.\.\. \d+ more)\b/,
  // Error and log lines.
  /^\s*[A-Z]\w*(?:Error|Exception)\b(?::|\s*$)/,
  /^\s*\[?(?:INFO|WARN|WARNING|ERROR|ERR|DEBUG|TRACE|FATAL|CRITICAL)\]?[\s:\]]/,
  /^\s*(?:npm|pnpm|yarn) (?:ERR!|WARN|error)/,
  /^\s*error(?:\[\w+\])?\s*(?:TS\d+)?:/i,
  /^\s*(?:warning|note|hint|help)(?:\[\w+\])?:\s/,
  /^\s*[\w./@-]+\.\w{1,5}[:(]\d+/,
  // Test runners.
  /^\s*(?:PASS|FAIL|SKIP|TODO)\b/,
  /^\s*(?:ok|not ok) \d+/,
  /^\s*[✓✔✗✘×√↓❯→]\s/u,
  /^\s*(?:Tests?|Test Files|Test Suites|Suites?|Snapshots|Time|Duration|Start at)\s*:?\s+\d/,
  /^\s*\d+\s+(?:passing|failing|pending|passed|failed|skipped|tests?)\b/,
  /^\s*(?:Expected|Received|Actual)\b[^:]{0,20}:/,
  // Build and package-manager chatter.
  /^\s*(?:Compiling|Finished|Running|Downloading|Installing|Resolving|Fetching|Cloning|Successfully|Done in|Step \d+\/\d+|added \d+ packages|up to date)\b/,
  /^\s*(?:Exit code|exit status|Command failed|Process exited)\b/i,
  // Listings: permissions, totals, a single path, several file names.
  /^\s*[-dlcbps][-rwxsStT@+.]{9}\s/,
  /^\s*total \d+\s*$/,
  /^\s*\S*\/\S*\s*$/,
  /^\s*(?:[\w.@-]+\.\w{1,6}\/?|[\w.@-]+\/)(?:\s+(?:[\w.@-]+\.\w{1,6}\/?|[\w.@-]+\/))+\s*$/,
  // Tables, box drawing, rules, columns.
  /\|.*\|/,
  /[┌┐└┘├┤┬┴┼│─═║╔╗╚╝]/u,
  /^\s*[-=+*_~]{3,}\s*$/,
  /\S {3,}\S.*\S {3,}\S/,
  // Code: indented blocks, bare brackets, diffs.
  /^(?: {4,}|\t)\S/,
  /^\s*[{}[\]();,]+\s*$/,
  /^(?:diff --git|index [0-9a-f]+\.\.|@@ |\+\+\+ |--- a\/)/,
  /^[+-](?![\s+-])\S/,
];

export function looksLikeOutput(line: string): boolean {
  if (OUTPUT_LINE.some((re) => re.test(line))) return true;
  // Mostly symbols and digits: hashes, ids, JSON fragments, progress bars.
  const visible = line.replace(/\s+/g, '');
  if (visible.length < 12) return false;
  const letters = visible.replace(/[^\p{L}]/gu, '').length;
  return letters / visible.length < 0.5;
}
