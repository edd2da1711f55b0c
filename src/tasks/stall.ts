/**
 * Recognising a task that waits for an answer. Checked only after the output has been still for
 * `stall-after` seconds, on the ANSI-stripped last line of the output.
 */
import stripAnsi from 'strip-ansi';

const PROMPTS: RegExp[] = [
  /\[\s*y(es)?\s*\/\s*n(o)?\s*\]/i, // [y/N], [Y/n], [yes/no]
  /\(\s*y(es)?\s*\/\s*n(o)?\s*\)/i, // (y/n), (yes/no)
  /\bpassword\b[^:\n]*:\s*$/i, // Password:, [sudo] password for x:
  /\bpassphrase\b/i, // Enter passphrase for key …
  /\bcontinue\s*\?/i,
  /\bproceed\s*\?/i,
  /\boverwrite\b.*\?/i,
  /\bare you sure\b/i,
  /\bpress (any key|enter|return)\b/i,
];

/** Last line of the output tail, without ANSI codes or carriage-return overwrites. */
export function lastLine(tail: string): { line: string; endsWithNewline: boolean } {
  const clean = stripAnsi(tail);
  const endsWithNewline = /\n\s*$/.test(clean);
  const lines = clean.split('\n').filter((l) => l.trim() !== '');
  const last = lines.at(-1) ?? '';
  const afterCr =
    last
      .split('\r')
      .filter((s) => s.trim() !== '')
      .at(-1) ?? '';
  return { line: afterCr, endsWithNewline };
}

/** True when the output ends in something that asks the user for input. */
export function looksLikePrompt(tail: string): boolean {
  const { line, endsWithNewline } = lastLine(tail);
  if (line === '') return false;
  if (PROMPTS.some((re) => re.test(line))) return true;
  // "Name? " / "Enter value: " left without a newline: the program waits on the same line.
  const raw = stripAnsi(tail);
  return !endsWithNewline && (/[?:] $/.test(raw) || /\?$/.test(raw));
}
