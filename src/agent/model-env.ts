/**
 * The model an agent task uses comes from the daemon's environment: its credentials travel to the
 * run in the run's environment only (never in the task directory, never in a log), and the run
 * keeps them from the commands it starts.
 */
/** The default agent model (the SDK warns on every request to claude-sonnet-4-5, the extraction default). */
export const AGENT_DEFAULT_MODEL = 'claude-sonnet-4-6';

/** Credentials and endpoint. ANTHROPIC_API_KEY / ANTHROPIC_AUTH_TOKEN are secrets. */
export const MODEL_ENV_KEYS: readonly string[] = ['ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN', 'ANTHROPIC_BASE_URL'];
/** Never handed on to the commands an agent runs. */
export const SECRET_ENV_KEYS: readonly string[] = ['ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN'];

const set = (v: string | undefined): v is string => v !== undefined && v.trim() !== '';

/** The model variables of `env`, or undefined when it has no way to reach a model. */
export function modelEnv(env: NodeJS.ProcessEnv): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  for (const k of MODEL_ENV_KEYS) {
    const v = env[k];
    if (set(v)) out[k] = v.trim();
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** `--model`, else NIGHTSHIFT_AGENT_MODEL, else ANTHROPIC_MODEL, else the default. */
export function resolveAgentModel(env: NodeJS.ProcessEnv): string {
  const a = env['NIGHTSHIFT_AGENT_MODEL'];
  const b = env['ANTHROPIC_MODEL'];
  return set(a) ? a.trim() : set(b) ? b.trim() : AGENT_DEFAULT_MODEL;
}

/** The environment for a command the agent starts: everything but the model secrets. */
export function withoutSecrets(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined && !SECRET_ENV_KEYS.includes(k)) out[k] = v;
  return out;
}
