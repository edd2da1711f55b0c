import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { AppError, isErrno } from './errors.js';

const GiB = 1024 ** 3;

export const ConfigSchema = z
  .object({
    logLevel: z.enum(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent']).default('info'),
    /** Tasks running at once; the rest wait in the queue. */
    maxParallel: z.number().int().min(1).max(10_000).default(64),
    /** Per-task output cap in bytes (enforced with RLIMIT_FSIZE on the task). */
    outputCapBytes: z
      .number()
      .int()
      .min(4096)
      .default(4 * GiB),
    /** Finished tasks' directories are removed this many days after they end. */
    retentionDays: z.number().min(0).default(14),
    /** Seconds without output before a running task is checked for a prompt. */
    stallAfterSeconds: z.number().min(1).default(45),
    /** How often running tasks are checked for stalls. */
    stallCheckSeconds: z.number().min(0.1).default(5),
    /** Shell command run (sh -c) on attention and exit; task details arrive in its environment. */
    notifyCommand: z.string().min(1).optional(),
    /** Commands (sh -c) run on events, each getting the event as one JSON line on stdin; desktop: notify-send too. */
    notify: z
      .object({
        onExit: z.string().min(1).optional(),
        onStall: z.string().min(1).optional(),
        onMonitor: z.string().min(1).optional(),
        desktop: z.boolean().default(false),
      })
      .strict()
      .default({}),
    /** Largest accepted request body. */
    maxRequestBytes: z
      .number()
      .int()
      .min(1024)
      .default(1024 * 1024),
    /** Optional TCP listener: loopback only, bearer token from the state dir's 0600 token file. */
    tcp: z
      .object({
        host: z.enum(['127.0.0.1', '::1', 'localhost']).default('127.0.0.1'),
        port: z.number().int().min(0).max(65535),
      })
      .strict()
      .optional(),
    /** The web dashboard (`nightshift ui`): served by the daemon on 127.0.0.1 only; 0 = any free port. */
    ui: z
      .object({
        enabled: z.boolean().default(false),
        port: z.number().int().min(0).max(65535).default(7787),
      })
      .strict()
      .default({}),
    memory: z
      .object({
        /**
         * auto: the Anthropic API when ANTHROPIC_API_KEY or ANTHROPIC_BASE_URL is set, else the
         * heuristics. claude-cli / codex-cli: the person's own agent CLI and its login (turned on by
         * `integrate … --model-extraction on`). "model" is the old name of "anthropic".
         */
        extractor: z
          .enum(['auto', 'heuristic', 'anthropic', 'claude-cli', 'codex-cli', 'model'])
          .default('auto')
          .transform((v) => (v === 'model' ? 'anthropic' : v)),
        /** The model for the Anthropic API and the Claude CLI (always passed: the CLI's own default is a large model). */
        model: z.string().min(1).default('claude-haiku-4-5'),
        /** The model for the Codex CLI; unset, the CLI's configured default. */
        codexModel: z.string().min(1).optional(),
        /** More `codex exec -c key=value` overrides (your own model provider: the user config.toml is not loaded for these calls). */
        codexConfig: z.array(z.string().regex(/^[^=\s]+=/, 'each is key=value')).default([]),
        /** Model tokens (input + output) memory extraction and the dream may spend per day; past it, heuristics until the next day. */
        dailyTokenBudget: z.number().int().min(0).default(400_000),
        /** Passed to the Claude CLI as --max-budget-usd for each call. */
        maxUsdPerCall: z.number().min(0).default(0.05),
        /** An agent CLI call that has not answered after this long is ended and counts as failed. */
        cliTimeoutSeconds: z.number().min(1).default(180),
        /** Where the agent CLIs are; default: found on PATH. */
        claudePath: z.string().min(1).optional(),
        codexPath: z.string().min(1).optional(),
        maxPerSession: z.number().int().min(1).max(200).default(60),
        /** Default token budget of a recall block. */
        recallBudget: z.number().int().min(50).max(200_000).default(2000),
        /** With a query, recall may add excerpts of past sessions below the matching memories. */
        episodesInRecall: z.boolean().default(true),
      })
      .strict()
      .default({}),
    /** Team memory directories by team name, e.g. {"core": "/home/me/src/team-notes/memory"}. */
    teams: z
      .record(
        z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/, 'team names are letters, digits, - and _'),
        z
          .string()
          .min(1)
          .refine((p) => p.startsWith('/'), 'must be an absolute path'),
      )
      .default({}),
    dream: z
      .object({
        /** Cron expression (local time) for the scheduled dream; false switches the schedule off. */
        schedule: z.union([z.string().min(1), z.literal(false)]).default('0 3 * * *'),
        /** Gates a scheduled dream must pass (a manual `nightshift dream` ignores them). */
        minHours: z.number().min(0).default(24),
        minSessions: z.number().int().min(0).default(5),
        /** Active memories per namespace (a project, you, a team); beyond it the lowest ranked are archived. */
        cap: z.number().int().min(1).default(150),
        /** Input tokens one dream may send to the model. */
        tokenBudget: z.number().int().min(0).default(200_000),
        /** Who reviews pairs that read alike; auto: the memory extractor's model, if it has one. */
        reviewer: z.enum(['auto', 'heuristic', 'anthropic', 'claude-cli', 'codex-cli']).default('auto'),
      })
      .strict()
      .default({}),
    transcripts: z
      .object({
        /** Watch transcript directories and ingest a session once its file has been idle. */
        watch: z.boolean().default(true),
        /** Default: ~/.claude/projects and ~/.codex/sessions, when they exist. */
        dirs: z.array(z.string().min(1)).optional(),
        idleSeconds: z.number().min(0.1).default(1800),
      })
      .strict()
      .default({}),
  })
  .strict();

export type Config = z.infer<typeof ConfigSchema>;

/** Loads the config file (missing file → embedded defaults). An invalid file is an error naming it. */
export function loadConfig(file: string): Config {
  let raw: unknown = {};
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    if (!isErrno(err, 'ENOENT')) {
      throw new AppError('config_invalid', `cannot read config ${file}: ${(err as Error).message}`);
    }
  }
  const parsed = ConfigSchema.safeParse(raw);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
    throw new AppError('config_invalid', `invalid config ${file}: ${issues}`);
  }
  return parsed.data;
}
