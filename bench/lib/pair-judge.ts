/**
 * The fake review model's judgement of a pair: what a careful reader decides from the two statements
 * alone. Two statements are the same when they name the same things (identifiers, names, tools,
 * numbers) with the same polarity; a contradiction when they name the same things but one number or
 * the polarity differs; distinct otherwise. It never sees the bench's ground truth.
 */

const ROLE_WORDS = new Set(['frontend', 'backend', 'staging', 'production', 'eu', 'us', 'main', 'release', 'develop']);
const NEGATIVE = /\b(?:never|not|no|nobody|none|without)\b|n't\b/i;
const STOPWORDS = new Set(['the', 'a', 'an', 'we', 'our', 'its', 'is', 'are', 'to', 'in', 'on', 'of', 'for', 'with', 'by', 'at']);

function things(text: string): { names: Set<string>; numbers: Set<string> } {
  const names = new Set<string>();
  const numbers = new Set<string>();
  const words = text.replace(/[`'’]s\b/g, '').match(/[A-Za-z0-9][\w.+-]*/g) ?? [];
  words.forEach((w, i) => {
    const lower = w.toLowerCase().replace(/\.$/, '');
    const number = /^(\d+)(?:-[a-z]+)?$/.exec(lower)?.[1];
    if (number !== undefined) numbers.add(number);
    else if (/[-_\d]/.test(lower) || ROLE_WORDS.has(lower) || (i > 0 && /^[A-Z]/.test(w) && !STOPWORDS.has(lower))) names.add(lower);
    else if (/^[a-z]+$/.test(lower) && KNOWN.has(lower)) names.add(lower);
  });
  return { names, numbers };
}

/** Lower-case tool names a reader recognises. */
const KNOWN = new Set(['pnpm', 'yarn', 'npm', 'bun', 'make', 'lint', 'test', 'cargo', 'clippy', 'mix', 'credo', 'ruff', 'check', 'gofmt', 'rustfmt', 'http']);

const same = (a: Set<string>, b: Set<string>) => a.size === b.size && [...a].every((x) => b.has(x));

export function judge(a: string, b: string): 'same' | 'contradiction' | 'distinct' {
  const x = things(a);
  const y = things(b);
  x.names.delete('http');
  y.names.delete('http');
  if (!same(x.names, y.names)) return 'distinct';
  const polarity = NEGATIVE.test(a) === NEGATIVE.test(b);
  if (same(x.numbers, y.numbers) && polarity) return 'same';
  return 'contradiction';
}
