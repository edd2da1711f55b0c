/**
 * Whether a model is available, and the SDK client for it. Only the environment decides: with
 * neither ANTHROPIC_API_KEY, ANTHROPIC_AUTH_TOKEN nor ANTHROPIC_BASE_URL, nightshift runs on
 * heuristics. Credentials are passed explicitly, so the SDK never goes looking in config files.
 */
import Anthropic from '@anthropic-ai/sdk';
import type { Logger } from '../log.js';

export const DEFAULT_MODEL = 'claude-sonnet-4-5';

/** Sent when only a base URL is set (a local Anthropic-compatible endpoint needs no key). */
export const PLACEHOLDER_API_KEY = 'nightshift-no-key';

export interface ModelConfig {
  model: string;
  apiKey?: string;
  authToken?: string;
  baseURL?: string;
  /** SDK retries of 408/409/429/5xx/529 and connection errors (never other 4xx). Default 2. */
  maxRetries: number;
  /** Per HTTP attempt, until response headers (streamed bodies are not cut). Default 10 minutes. */
  timeoutMs: number;
}

/** Model settings from the config file; the environment wins for the model name. */
export interface ModelSettings {
  /** false: never use a model, even with a key. */
  enabled?: boolean;
  model?: string;
  maxRetries?: number;
  timeoutMs?: number;
}

const nonEmpty = (v: string | undefined): string | undefined => (v && v.trim() ? v.trim() : undefined);

/**
 * The model to use, or undefined when none is configured. A base URL alone is enough (a
 * placeholder key is sent); ANTHROPIC_AUTH_TOKEN is sent as a bearer token.
 * Model name: NIGHTSHIFT_MODEL, then ANTHROPIC_MODEL, then settings, then DEFAULT_MODEL.
 */
export function modelConfigFromEnv(env: NodeJS.ProcessEnv, settings: ModelSettings = {}): ModelConfig | undefined {
  if (settings.enabled === false) return undefined;
  const apiKey = nonEmpty(env['ANTHROPIC_API_KEY']);
  const authToken = nonEmpty(env['ANTHROPIC_AUTH_TOKEN']);
  const baseURL = nonEmpty(env['ANTHROPIC_BASE_URL']);
  if (!apiKey && !authToken && !baseURL) return undefined;
  const cfg: ModelConfig = {
    model: nonEmpty(env['NIGHTSHIFT_MODEL']) ?? nonEmpty(env['ANTHROPIC_MODEL']) ?? settings.model ?? DEFAULT_MODEL,
    maxRetries: settings.maxRetries ?? 2,
    timeoutMs: settings.timeoutMs ?? 10 * 60_000,
  };
  if (apiKey) cfg.apiKey = apiKey;
  else if (!authToken) cfg.apiKey = PLACEHOLDER_API_KEY;
  if (authToken) cfg.authToken = authToken;
  if (baseURL) cfg.baseURL = baseURL;
  return cfg;
}

/**
 * The SDK client. Its own warnings go to `log` (message only: the SDK's extra arguments may carry
 * request details) instead of the console.
 */
export function createAnthropic(cfg: Pick<ModelConfig, 'apiKey' | 'authToken' | 'baseURL'> & Partial<ModelConfig>, log?: Logger): Anthropic {
  return new Anthropic({
    // Never let the SDK fall back to its own credential discovery (config files, profiles).
    apiKey: cfg.apiKey ?? (cfg.authToken ? null : PLACEHOLDER_API_KEY),
    authToken: cfg.authToken ?? null,
    baseURL: cfg.baseURL ?? 'https://api.anthropic.com',
    maxRetries: cfg.maxRetries ?? 2,
    timeout: cfg.timeoutMs ?? 10 * 60_000,
    ...(log
      ? {
          logger: {
            error: (msg: string) => log.error({ component: 'anthropic-sdk' }, String(msg)),
            warn: (msg: string) => log.warn({ component: 'anthropic-sdk' }, String(msg)),
            info: (msg: string) => log.debug({ component: 'anthropic-sdk' }, String(msg)),
            debug: (msg: string) => log.trace({ component: 'anthropic-sdk' }, String(msg)),
          },
          logLevel: 'warn' as const,
        }
      : {}),
  });
}

/** Human description of the configured model for status output (never the key). */
export function describeModel(cfg: ModelConfig | undefined): string {
  if (!cfg) return 'none (set ANTHROPIC_API_KEY or ANTHROPIC_BASE_URL to use a model; heuristics meanwhile)';
  return `${cfg.model} via ${cfg.baseURL ?? 'https://api.anthropic.com'}`;
}
