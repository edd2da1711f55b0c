/** The kinds of secret a mask names, and the shape of a rule (shared by the rule tables). */
import type { Candidate } from './secret-values.js';

export type SecretKind =
  | 'private_key'
  | 'anthropic_key'
  | 'openai_key'
  | 'stripe_key'
  | 'stripe_webhook_secret'
  | 'github_token'
  | 'gitlab_token'
  | 'slack_token'
  | 'slack_webhook'
  | 'aws_access_key_id'
  | 'aws_secret_key'
  | 'google_api_key'
  | 'jwt'
  | 'npm_token'
  | 'sendgrid_key'
  | 'huggingface_token'
  | 'shopify_token'
  | 'linear_key'
  | 'digitalocean_token'
  | 'doppler_token'
  | 'pypi_token'
  | 'onepassword_token'
  | 'url_password'
  | 'bearer_token'
  | 'password'
  | 'secret'
  /** A line too long to scan within the budget: masked whole, whatever it held. */
  | 'unscanned';

export interface SecretRule {
  /** Global with indices; the secret is the `secret` group when there is one, else the whole match. */
  pattern: RegExp;
  /** The kind of a match, or undefined when it turns out not to be a secret. */
  kind: (c: Candidate) => SecretKind | undefined;
  /** Where the match alone says it is a secret, however much it looks like a stand-in (`xxxx`). */
  anyValue?: boolean;
}

export const rx = (source: string, flags = ''): RegExp => new RegExp(source, `dg${flags}`);
