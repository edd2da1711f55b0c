/**
 * Layer 1: the maintained provider rule set, `@secretlint/secretlint-rule-preset-recommend`, run
 * synchronously here rather than through `@secretlint/core`'s `lintSource`:
 * - redaction is synchronous (store writes, digest builds and edits call it with no await), and
 *   `lintSource` answers with a promise;
 * - `lintSource` marks ~60 `performance` entries per call that its always-on profiler keeps for the
 *   life of the process: a daemon redacting every message of every session would grow without end;
 * - it costs more per call (see BENCHMARKS.md, "Secret detection").
 * The preset's text rules report from their `file` handler without awaiting, so calling that
 * handler is the whole run. A test lints the corpus both ways and fails if they ever disagree.
 */
import { createRequire } from 'node:module';
import type { SecretKind } from './secret-kinds.js';

type Preset = typeof import('@secretlint/secretlint-rule-preset-recommend');
type RuleCreator = Preset['rules'][number];
type RuleContext = Parameters<RuleCreator['create']>[0];
type SourceCode = Parameters<NonNullable<ReturnType<RuleCreator['create']>['file']>>[0];

export interface LintHit {
  /** The rule's id without the `@secretlint/secretlint-rule-` prefix: `github`, `aws`, `slack`… */
  rule: string;
  start: number;
  end: number;
}

const PREFIX = '@secretlint/secretlint-rule-';
/** AWS access key ids are off by default in the preset (not secret alone); a memory keeps none. */
const OPTIONS: Record<string, Record<string, unknown>> = { [`${PREFIX}aws`]: { enableIDScanRule: true } };
/**
 * `filter-comments` honours `secretlint-disable` comments (a transcript must not switch redaction
 * off); `gcp` reads `.p12`/`.json` files by path, and a memory is neither.
 */
const SKIPPED = new Set([`${PREFIX}filter-comments`, `${PREFIX}gcp`]);

let sink: LintHit[] | undefined;
let current = '';

function contextFor(rule: string): RuleContext {
  return {
    sharedOptions: {},
    // Messages are never shown: only where the secret is matters.
    createTranslator: () => (messageId, data) => ({ message: String(messageId), messageId: String(messageId), data }),
    report: (d) => sink?.push({ rule, start: d.range[0], end: d.range[1] }),
    ignore: () => undefined,
  };
}

type Handler = NonNullable<ReturnType<RuleCreator['create']>['file']>;
let handlers: Handler[] | undefined;

/**
 * The handlers, made on first use: loading the preset takes ~40 ms, which the CLI commands that
 * share the daemon's bundle must not pay at start. (`require` of an ES module: Node ≥ 20.19.)
 */
function loadHandlers(): Handler[] {
  const { rules } = createRequire(import.meta.url)('@secretlint/secretlint-rule-preset-recommend') as Preset;
  return rules
    .filter((r) => !SKIPPED.has(r.meta.id) && r.meta.type === 'scanner')
    .map((r) => r.create(contextFor(r.meta.id.replace(PREFIX, '')), OPTIONS[r.meta.id] ?? {}).file)
    .filter((f) => f !== undefined);
}

/** What the rules may read of the text: its content, and a neutral name and type. */
const source: SourceCode = {
  get content() {
    return current;
  },
  hasBOM: false,
  filePath: undefined,
  physicalFilePath: undefined,
  contentType: 'text',
  ext: '.txt',
  getFilePath: () => undefined,
  getPhysicalFilePath: () => undefined,
  locationToRange: () => [0, 0],
  rangeToLocation: () => ({ start: { line: 1, column: 0 }, end: { line: 1, column: 0 } }),
  positionToIndex: () => 0,
  indexToPosition: () => ({ line: 1, column: 0 }),
};

/**
 * Every secret the preset knows is a run of 16+ token characters (keys, tokens, ids), a URL with
 * credentials or a PEM block: most sentences hold none, and skip the ~15 rules (0.03 ms a call).
 */
const WORTH_LINTING = /[A-Za-z0-9+/=_-]{16}|:\/\/|-----BEGIN/;

/** Where the preset's rules find a secret in `text`. */
export function lintSecrets(text: string): LintHit[] {
  const hits: LintHit[] = [];
  if (!WORTH_LINTING.test(text)) return hits;
  sink = hits;
  current = text;
  try {
    handlers ??= loadHandlers();
    for (const file of handlers) {
      const pending = file(source);
      // A handler that went async would report after `sink` is gone: the corpus test catches it.
      if (pending instanceof Promise) pending.catch(() => undefined);
    }
  } finally {
    sink = undefined;
    current = '';
  }
  return hits;
}

const KINDS: Record<string, SecretKind> = {
  npm: 'npm_token',
  slack: 'slack_token',
  basicauth: 'url_password',
  'database-connection-string': 'url_password',
  openai: 'openai_key',
  anthropic: 'anthropic_key',
  linear: 'linear_key',
  privatekey: 'private_key',
  sendgrid: 'sendgrid_key',
  shopify: 'shopify_token',
  github: 'github_token',
  '1password': 'onepassword_token',
};

/** The mask's kind for a hit of `rule` on `value`. */
export function lintKind(rule: string, value: string): SecretKind {
  if (rule === 'aws') return /^(?:AKIA|ASIA)/.test(value) ? 'aws_access_key_id' : 'aws_secret_key';
  return KINDS[rule] ?? 'secret';
}
