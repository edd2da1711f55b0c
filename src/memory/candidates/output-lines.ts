/**
 * Recognises lines a person pasted rather than wrote: shell sessions, logs, stack traces, test
 * reports, file listings, tables, diffs. They are evidence about the moment, never memories.
 */

/**
 * Each pattern alone marks a line as pasted output, by how the line opens. Case matters where
 * tools shout (PASS, ERROR).
 */
const OUTPUT_START: readonly RegExp[] = [
  // Shell prompts and quotes (`> ` also covers quoted replies), markdown headings.
  /^\s*(?:\$|>|%|#+|❯|➜|λ|PS [A-Z]:\\?[^>]*>)\s/,
  // An agent CLI's own screen, copied: Claude Code's "⏺" before what the agent said or ran, "⎿"
  // before a tool's result, "✻" before its status line.
  /^\s*[⏺⎿✻✶✳]/u,
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
  /^\s*[Ee]rror(?:\[\w+\])?\s*(?:TS\d+)?:/,
  /^\s*(?:warning|note|hint|help)(?:\[\w+\])?:\s/,
  /^\s*[\w./@-]+\.\w{1,5}[:(]\d+/,
  // A framework's error overlay: "components/wizard.tsx (235:17) Console Error".
  /^\s*[\w./@-]+\.\w{1,5} \(\d+:\d+\)/,
  // Test runners.
  /^\s*(?:PASS|FAIL|SKIP|TODO)\b/,
  /^\s*(?:ok|not ok) \d+/,
  /^\s*[✓✔✗✘×√↓❯→]\s/,
  /^\s*(?:Tests?|Test Files|Test Suites|Suites?|Snapshots|Time|Duration|Start at)\s*:?\s+\d/,
  /^\s*\d+\s+(?:passing|failing|pending|passed|failed|skipped|tests?)\b/,
  /^\s*(?:Expected|Received|Actual)\b[^:]{0,20}:/,
  // Build and package-manager chatter.
  /^\s*(?:Compiling|Finished|Running|Downloading|Installing|Resolving|Fetching|Cloning|Successfully|Done in|Step \d+\/\d+|added \d+ packages|up to date)\b/,
  /^\s*(?:[Ee]xit code|[Ee]xit status|Command failed|Process exited)\b/,
  // Listings: permissions, totals, a single path, several file names.
  /^\s*[-dlcbps][-rwxsStT@+.]{9}\s/,
  /^\s*total \d+\s*$/,
  /^\s*\S*\/\S*\s*$/,
  /^\s*(?:[\w.@-]+\.\w{1,6}\/?|[\w.@-]+\/)(?:\s+(?:[\w.@-]+\.\w{1,6}\/?|[\w.@-]+\/))+\s*$/,
  // Rules.
  /^\s*[-=+*_~]{3,}\s*$/,
  // Code: indented blocks, bare brackets, diffs.
  /^(?: {4,}|\t)\S/,
  /^\s*[{}[\]();,]+\s*$/,
  /^(?:diff --git|index [0-9a-f]+\.\.|@@ |\+\+\+ |--- a\/)/,
  /^[+-](?![\s+-])\S/,
];

// One alternation anchored once runs faster than forty calls, each tried at every position.
const ANY_START = new RegExp(`^(?:${OUTPUT_START.map((re) => `(?:${re.source.replace(/^\^/, '')})`).join('|')})`);
/** Tables, box drawing and aligned columns can show anywhere in a line. */
const TABLE = /\|.*\||[┌┐└┘├┤┬┴┼│─═║╔╗╚╝]|\S {3,}\S.*\S {3,}\S/;

const LETTER = /\p{L}/u;

export function looksLikeOutput(line: string): boolean {
  if (ANY_START.test(line) || ((line.includes('|') || line.includes('   ') || /[^\x00-\x7f]/.test(line)) && TABLE.test(line))) return true;
  // Mostly symbols and digits: hashes, ids, JSON fragments, progress bars.
  let visible = 0;
  let letters = 0;
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c <= 32) continue;
    visible++;
    if ((c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c > 127 && LETTER.test(line.charAt(i)))) letters++;
  }
  return visible >= 12 && letters / visible < 0.5;
}
