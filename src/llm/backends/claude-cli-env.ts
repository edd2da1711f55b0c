/**
 * The environment of a `claude -p` child: only what it needs to find itself, log in and reach its
 * API (HOME, PATH, locale, proxies, the ANTHROPIC_* / CLAUDE_* variables), never the daemon's whole
 * environment; plus the model-call marker (so no nightshift hook of the child acts) and the
 * switches that keep the CLI from any traffic but the one call (telemetry, updates, error reports).
 */
import { MODEL_CALL_MARKER } from '../backend.js';

const PASS = new Set([
  'HOME',
  'PATH',
  'USER',
  'LOGNAME',
  'SHELL',
  'LANG',
  'TMPDIR',
  'TZ',
  'XDG_CONFIG_HOME',
  'XDG_DATA_HOME',
  'XDG_CACHE_HOME',
  'XDG_STATE_HOME',
  'XDG_RUNTIME_DIR',
]);
const PASS_PREFIX = ['ANTHROPIC_', 'CLAUDE_', 'LC_'];
/** Set inside a Claude Code session (a daemon autostarted by a hook inherits them): not the child's. */
const SESSION_ONLY = new Set(['CLAUDE_PROJECT_DIR', 'CLAUDE_ENV_FILE', 'CLAUDE_CODE_ENTRYPOINT', 'CLAUDE_CODE_SSE_PORT']);
/** Proxies and CA bundles: a login behind a corporate proxy needs them. */
const PASS_NETWORK = new Set(['HTTPS_PROXY', 'HTTP_PROXY', 'NO_PROXY', 'https_proxy', 'http_proxy', 'no_proxy', 'NODE_EXTRA_CA_CERTS', 'SSL_CERT_FILE']);

export const QUIET_ENV: Readonly<Record<string, string>> = {
  CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
  DISABLE_TELEMETRY: '1',
  DISABLE_ERROR_REPORTING: '1',
  DISABLE_AUTOUPDATER: '1',
  DISABLE_UPDATES: '1',
  DISABLE_GROWTHBOOK: '1',
  CLAUDE_CODE_DISABLE_FEATURE_FLAGS: '1',
  // Nothing of the machine's own context goes along: no CLAUDE.md, no auto-memory, no attachments.
  CLAUDE_CODE_DISABLE_CLAUDE_MDS: '1',
  CLAUDE_CODE_DISABLE_AUTO_MEMORY: '1',
  CLAUDE_CODE_DISABLE_ATTACHMENTS: '1',
  // One answer, no thinking: extraction is a reading job, and thinking tokens are paid output.
  MAX_THINKING_TOKENS: '0',
};

export function claudeChildEnv(env: NodeJS.ProcessEnv, maxOutputTokens: number): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) {
    if (v === undefined || SESSION_ONLY.has(k)) continue;
    if (PASS.has(k) || PASS_NETWORK.has(k) || PASS_PREFIX.some((p) => k.startsWith(p))) out[k] = v;
  }
  return { ...out, ...QUIET_ENV, CLAUDE_CODE_MAX_OUTPUT_TOKENS: String(maxOutputTokens), [MODEL_CALL_MARKER]: '1' };
}
