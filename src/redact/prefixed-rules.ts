/**
 * Layer 3: provider prefixes at any length. The exact rules know each provider's usual length; a
 * token pasted with a typo (`ghp_` + 35), a key id one character long (`AKIA` + 17) or a format a
 * provider changes must not slip past them. Here the prefix is enough, and the body must look
 * generated (not filler like `XXXX…`, not a word: `sk-learn`, `npm_config_cache`).
 */
import { generatedBody } from './entropy.js';
import { rx, type SecretKind, type SecretRule } from './secret-kinds.js';

const START = String.raw`(?<![A-Za-z0-9_-])`;
const END = String.raw`(?![A-Za-z0-9_-])`;

/** A rule whose body (the `body` group) must look generated, and hold a digit where `digit`. */
function prefixed(kind: SecretKind, source: string, opts: { digit?: boolean; flags?: string } = {}): SecretRule {
  return {
    pattern: rx(source, opts.flags),
    kind: (c) => {
      const body = c.value.replace(/^(?:[A-Za-z]+[_.-])+|^(?:AKIA|ASIA|AIza)/, '');
      if (opts.digit === true && !/\d/.test(body)) return undefined;
      return generatedBody(body) ? kind : undefined;
    },
  };
}

export const PREFIXED_RULES: readonly SecretRule[] = [
  prefixed('anthropic_key', String.raw`${START}sk-ant-[A-Za-z0-9_-]{8,}`),
  prefixed('openai_key', String.raw`${START}sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{8,}`, { digit: true }),
  prefixed('stripe_key', String.raw`${START}(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{8,}${END}`),
  prefixed('stripe_webhook_secret', String.raw`${START}whsec_[A-Za-z0-9+/=]{8,}`),
  prefixed('github_token', String.raw`${START}(?:gh[pousr]_[A-Za-z0-9_]{8,}|github_pat_[A-Za-z0-9_]{8,})${END}`),
  prefixed('gitlab_token', String.raw`${START}gl(?:pat|ptt|dt|rt|cbt|imt|oas|ft|soat|ffct|agent)-[A-Za-z0-9_-]{8,}`),
  prefixed('slack_token', String.raw`${START}(?:xox[a-z]|xapp)-[A-Za-z0-9-]{8,}`),
  prefixed('aws_access_key_id', String.raw`(?<![A-Za-z0-9])(?:AKIA|ASIA)[A-Z0-9]{8,}(?![A-Za-z0-9])`),
  prefixed('google_api_key', String.raw`${START}AIza[0-9A-Za-z_-]{16,}${END}`),
  prefixed('npm_token', String.raw`${START}npm_[A-Za-z0-9]{8,}${END}`, { digit: true }),
  prefixed('sendgrid_key', String.raw`${START}SG\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}`),
  prefixed('huggingface_token', String.raw`${START}hf_[A-Za-z0-9]{16,}${END}`, { digit: true }),
  prefixed('shopify_token', String.raw`${START}shp(?:at|ss|ca|pa)_[A-Fa-f0-9]{16,}${END}`),
  prefixed('linear_key', String.raw`${START}lin_(?:api|oauth)_[A-Za-z0-9]{16,}${END}`),
  prefixed('digitalocean_token', String.raw`${START}do[por]_v1_[a-f0-9]{16,}${END}`),
  prefixed('doppler_token', String.raw`${START}dp\.(?:pt|st|ct|sa|scim|audit)\.[A-Za-z0-9]{16,}${END}`),
  prefixed('pypi_token', String.raw`${START}pypi-[A-Za-z0-9_-]{16,}`),
  prefixed('onepassword_token', String.raw`${START}ops_ey[A-Za-z0-9_-]{16,}`),
];
