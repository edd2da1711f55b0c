/**
 * Which shell commands of a session say something about its outcome (tests, builds, linters,
 * commits, pushes, pull requests, deploys, installs), each reduced to the part that matters:
 * `cd app && npm test 2>&1 | tail -20` is `npm test`.
 */
import type { DigestCommandKind } from '../../api/digest.js';
import { type SimpleCommand, simpleCommands } from './shell.js';

const PM = '(?:npm|pnpm|yarn|bun)';

const KINDS: [DigestCommandKind, RegExp][] = [
  ['commit', /^git\b(?:\s+-[Cc]\s+\S+)*\s+commit\b/],
  ['push', /^git\b(?:\s+-[Cc]\s+\S+)*\s+push\b/],
  ['pr', /^gh\s+pr\s+(?:create|merge)\b/],
  ['deploy', /^(?:fly(?:ctl)?\s+deploy|vercel\b.*--prod|kamal\s+deploy|netlify\s+deploy|railway\s+up|wrangler\s+(?:deploy|publish)|firebase\s+deploy)\b/],
  [
    'test',
    new RegExp(
      `^(?:${PM}\\s+(?:run\\s+)?test\\b|npx\\s+(?:vitest|jest|mocha|playwright\\s+test)\\b|vitest\\b|jest\\b|mocha\\b|playwright\\s+test\\b|pytest\\b|py\\.test\\b|python\\d?(?:\\.\\d+)?\\s+-m\\s+(?:pytest|unittest)\\b|mix\\s+test\\b|cargo\\s+(?:test|nextest)\\b|go\\s+test\\b|(?:bundle\\s+exec\\s+)?(?:rspec|rake\\s+test)\\b|(?:bin/)?rails\\s+test\\b|make\\s+(?:test|check)\\b|phpunit\\b|ctest\\b|dotnet\\s+test\\b|\\.?/?gradlew?\\s+test\\b|mvn\\s+test\\b|deno\\s+test\\b|forge\\s+test\\b|anchor\\s+test\\b)`,
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
      `^(?:${PM}\\s+(?:run\\s+)?build\\b|tsc\\b|cargo\\s+build\\b|mix\\s+compile\\b|go\\s+build\\b|make(?:\\s+(?:build|all|release))?$|\\.?/?gradlew?\\s+build\\b|mvn\\s+(?:package|compile|install)\\b|dotnet\\s+build\\b|(?:npx\\s+)?(?:vite|next)\\s+build\\b|docker\\s+(?:compose\\s+)?build\\b|anchor\\s+build\\b|forge\\s+build\\b)`,
    ),
  ],
  [
    'install',
    new RegExp(
      `^(?:${PM}\\s+(?:i|install|add|ci)\\b|pip3?\\s+install\\b|uv\\s+(?:add|sync|pip\\s+install)\\b|poetry\\s+(?:add|install)\\b|cargo\\s+add\\b|mix\\s+deps\\.get\\b|bundle\\s+install\\b|go\\s+get\\b)`,
    ),
  ],
];

const ASSIGNMENT = /^[A-Za-z_]\w*=/;
/** Words that run the rest of the line as their command: `time`, `sudo`, `env X=1`, `nohup`, `timeout 60`. */
const WRAPPERS = new Set(['time', 'sudo', 'env', 'nohup', 'nice', 'timeout', 'command', 'exec', 'stdbuf']);
/** Launchers of a package's program: `npx vitest run` runs vitest, `uv run pytest` pytest. */
const LAUNCHERS = new Set([
  'npx',
  'bunx',
  'pnpx',
  'pnpm exec',
  'pnpm dlx',
  'yarn exec',
  'yarn dlx',
  'bundle exec',
  'uv run',
  'poetry run',
  'pipenv run',
  'pdm run',
  'hatch run',
]);
const SHELLS = /^(?:\/(?:usr\/)?bin\/)?(?:ba|z|da|k)?sh$/;

/** Where the command proper starts: past env assignments and wrappers, with their options and a timeout's duration. */
function pastWrappers(words: string[]): number {
  let i = 0;
  while (i < words.length) {
    const w = words[i] ?? '';
    if (ASSIGNMENT.test(w)) i++;
    else if (WRAPPERS.has(w)) {
      i++;
      while (i < words.length && /^(?:-|\d+(?:\.\d+)?[smhd]?$)/.test(words[i] ?? '')) i++;
    } else break;
  }
  return i;
}

/** Where the launched program starts, when `words[i]` is a launcher (`npx -y vitest` → vitest). */
function pastLauncher(words: string[], i: number): number {
  let j = LAUNCHERS.has(words[i] ?? '') ? i + 1 : LAUNCHERS.has(`${words[i]} ${words[i + 1]}`) ? i + 2 : i;
  if (j === i) return i;
  while (j < words.length && (words[j] ?? '').startsWith('-')) j += /^(?:-p|--package)$/.test(words[j] ?? '') ? 2 : 1;
  return j;
}

function kindOf(text: string): DigestCommandKind | undefined {
  return KINDS.find(([, re]) => re.test(text))?.[0];
}

export interface NotableCommand {
  kind: DigestCommandKind;
  /** The command as written from its program on, clipped: what the digest shows and groups runs by. */
  command: string;
  /**
   * A later command of the line decides its exit status (`npm test 2>&1 | tail -5`, `npm test; echo
   * done`): a zero says nothing about this one.
   */
  masked: boolean;
}

const SHOWN_MAX = 80;

/**
 * The check, commit, push… that one simple command runs, if it runs one. Its program decides, not
 * what its arguments mention: `grep -rn "npm test" src` is a search.
 */
function notableIn(c: SimpleCommand): NotableCommand | undefined {
  const start = pastWrappers(c.words);
  // `bash -lc "npm test"`: the script is the command.
  if (SHELLS.test(c.words[start] ?? '')) {
    const flag = c.words.findIndex((w, i) => i > start && /^-\w*c$/.test(w));
    const script = flag < 0 ? undefined : c.words[flag + 1];
    return script === undefined ? undefined : notableCommand(script);
  }
  const head = c.words.slice(start).join(' ');
  const kind = kindOf(head) ?? kindOf(c.words.slice(pastLauncher(c.words, start)).join(' '));
  if (kind === undefined) return undefined;
  const segment = c.raw.slice(start).join(' ');
  const shown = kind === 'commit' ? 'git commit' : kind === 'push' ? segment.replace(/\s--?force\S*/, ' --force').slice(0, SHOWN_MAX) : segment;
  return { kind, command: shown.length > SHOWN_MAX ? `${shown.slice(0, SHOWN_MAX - 1)}…` : shown, masked: false };
}

/** The first simple command of a command line that matters, and what kind it is. */
export function notableCommand(command: string): NotableCommand | undefined {
  // A heredoc's body is data, not commands.
  const commands = simpleCommands(command.replace(/<<-?\s*['"]?(\w+)['"]?[\s\S]*?\n\1\b/g, ''));
  for (const [k, c] of commands.entries()) {
    const found = notableIn(c);
    if (found === undefined) continue;
    // After `&&` a failure stops the line with its own status; a pipe, `;`, `||` or `&` hides it.
    const masked = c.next === '|' || commands.slice(k).some((x) => x.next === ';' || x.next === '||' || x.next === '&');
    return { ...found, masked: found.masked || masked };
  }
  return undefined;
}

/**
 * What test runners, compilers and linters print when something failed (vitest, jest, pytest, go,
 * cargo, mocha, npm/pnpm, tsc, eslint), and an echoed exit status (`; echo "exit=$?"`). Case
 * matters: passing output says "error" and "failed" often enough.
 */
const FAILURE_REPORT =
  /^\s*(?:FAIL(?:ED)?\b|--- FAIL:|npm (?:ERR!|error) |error(?:\[E\d+\])?:|Found [1-9]\d* errors?\b)|\b[1-9]\d* (?:failed|failing)\b|\btest result: FAILED\b|\bELIFECYCLE\b|\berror TS\d+:|✖ [1-9]\d* problems?\b|\b(?:[Ee]xit|EXIT)(?:[ _](?:[Cc]ode|[Ss]tatus|CODE|STATUS))?[:=]? ?[1-9]\d*\b/m;

/** Whether a check's output reports a failure: its outcome when another command's exit status hides its own. */
export function reportsFailure(output: string): boolean {
  return FAILURE_REPORT.test(output);
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
