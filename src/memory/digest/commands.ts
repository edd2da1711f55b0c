/**
 * Which shell commands of a session say something about its outcome (tests, builds, linters,
 * commits, pushes, pull requests, deploys, installs), each reduced to the part that matters:
 * `cd app && npm test 2>&1 | tail -20` is `npm test`.
 */
import type { DigestCommandKind } from '../../api/digest.js';

const PM = '(?:npm|pnpm|yarn|bun)';

const KINDS: [DigestCommandKind, RegExp][] = [
  ['commit', /^git\b(?:\s+-[Cc]\s+\S+)*\s+commit\b/],
  ['push', /^git\b(?:\s+-[Cc]\s+\S+)*\s+push\b/],
  ['pr', /^gh\s+pr\s+(?:create|merge)\b/],
  ['deploy', /^(?:fly(?:ctl)?\s+deploy|vercel\b.*--prod|kamal\s+deploy|netlify\s+deploy|railway\s+up|wrangler\s+(?:deploy|publish)|firebase\s+deploy)\b/],
  [
    'test',
    new RegExp(
      `^(?:${PM}\\s+(?:run\\s+)?test\\b|npx\\s+(?:vitest|jest|mocha|playwright\\s+test)\\b|vitest\\b|jest\\b|pytest\\b|py\\.test\\b|python\\d?(?:\\.\\d+)?\\s+-m\\s+(?:pytest|unittest)\\b|mix\\s+test\\b|cargo\\s+(?:test|nextest)\\b|go\\s+test\\b|(?:bundle\\s+exec\\s+)?(?:rspec|rake\\s+test)\\b|(?:bin/)?rails\\s+test\\b|make\\s+(?:test|check)\\b|phpunit\\b|ctest\\b|dotnet\\s+test\\b|\\.?/?gradlew?\\s+test\\b|mvn\\s+test\\b|deno\\s+test\\b|forge\\s+test\\b|anchor\\s+test\\b)`,
    ),
  ],
  [
    'lint',
    new RegExp(
      `^(?:${PM}\\s+(?:run\\s+)?(?:lint|typecheck|check|format:check)\\b|npx\\s+(?:eslint|tsc|biome|prettier)\\b|eslint\\b|tsc\\s+(?:.*\\s)?--noEmit\\b|ruff\\b|mypy\\b|mix\\s+(?:credo|dialyzer|format\\s+--check)|cargo\\s+clippy\\b|rubocop\\b|golangci-lint\\b|biome\\b)`,
    ),
  ],
  [
    'build',
    new RegExp(
      `^(?:${PM}\\s+(?:run\\s+)?build\\b|tsc\\b|cargo\\s+build\\b|mix\\s+compile\\b|go\\s+build\\b|make(?:\\s+(?:build|all|release))?$|\\.?/?gradlew?\\s+build\\b|mvn\\s+(?:package|compile|install)\\b|dotnet\\s+build\\b|npx\\s+(?:vite|next)\\s+build\\b|docker\\s+(?:compose\\s+)?build\\b|anchor\\s+build\\b|forge\\s+build\\b)`,
    ),
  ],
  [
    'install',
    new RegExp(
      `^(?:${PM}\\s+(?:i|install|add|ci)\\b|pip3?\\s+install\\b|uv\\s+(?:add|sync|pip\\s+install)\\b|poetry\\s+(?:add|install)\\b|cargo\\s+add\\b|mix\\s+deps\\.get\\b|bundle\\s+install\\b|go\\s+get\\b)`,
    ),
  ],
];

/** Pieces of a command line separated by `&&`, `||`, `;`, `|` and newlines, without `cd`, env assignments and redirections. */
function segments(command: string): string[] {
  return command
    .split(/&&|\|\||[;|\n]/)
    .map((s) =>
      s
        .replace(/\s\d?>&?\s*\S+/g, ' ')
        .replace(/^\s*(?:[A-Z_][A-Z0-9_]*=\S*\s+)+/, '')
        .replace(/^\s*(?:time|sudo|env)\s+/, '')
        .replace(/\s+/g, ' ')
        .trim(),
    )
    .filter((s) => s !== '' && !/^cd\b/.test(s));
}

export interface NotableCommand {
  kind: DigestCommandKind;
  /** The segment that matched, clipped: what the digest shows and groups runs by. */
  command: string;
}

const SHOWN_MAX = 80;

/** The first segment of a command line that matters, and what kind it is. */
export function notableCommand(command: string): NotableCommand | undefined {
  // A heredoc's body is data, not commands.
  const head = command.replace(/<<-?\s*['"]?(\w+)['"]?[\s\S]*?\n\1\b/g, '');
  for (const segment of segments(head)) {
    for (const [kind, re] of KINDS) {
      if (!re.test(segment)) continue;
      const shown = kind === 'commit' ? 'git commit' : kind === 'push' ? segment.replace(/\s--?force\S*/, ' --force').slice(0, SHOWN_MAX) : segment;
      return { kind, command: shown.length > SHOWN_MAX ? `${shown.slice(0, SHOWN_MAX - 1)}…` : shown };
    }
  }
  return undefined;
}

/** The message of a `git commit -m …` (a heredoc's first line included). */
export function commitMessage(command: string): string | undefined {
  const heredoc = /<<-?\s*['"]?(\w+)['"]?\s*\n\s*([^\n]+)/.exec(command)?.[2];
  const quoted = /\s-m\s*(["'])([\s\S]*?)\1/.exec(command)?.[2];
  const first = (heredoc ?? quoted)?.split('\n')[0]?.trim();
  return first === undefined || first === '' || first.startsWith('$(') ? undefined : first.slice(0, 120);
}

const ERROR_LINE = /\b(?:error|errors|failed|failure|failures|exception|cannot|can't|not found|undefined|fatal|panic|traceback|denied|refused|rejected)\b/i;

/** The line of a failed command's output that names the problem (else its first line), clipped. */
export function errorLine(output: string): string {
  // Hook output often arrives JSON-escaped: its `\n` are line breaks too.
  const lines = output
    .split(/\n|\\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '' && !/^Exit code \d+$/.test(l));
  const line = lines.find((l) => ERROR_LINE.test(l)) ?? lines[0] ?? 'failed';
  return line.length > 160 ? `${line.slice(0, 159)}…` : line;
}
