/**
 * What a secret looks like. Rules are tried in order and a later rule never overlaps an earlier
 * hit, so precise shapes (provider key formats) come first and claim their kind before the generic
 * `name = value` rules. Publishable keys (Stripe `pk_live_`/`pk_test_`) are left alone: they are
 * meant to ship in web pages.
 */
import { type Candidate, isCodeReference, isPlaceholder, isReference, looksLikePassword, looksRandom, nameFamily } from './secret-values.js';
import { PREFIXED_RULES } from './prefixed-rules.js';
import { rx, type SecretKind, type SecretRule } from './secret-kinds.js';

export type { SecretKind, SecretRule } from './secret-kinds.js';

const always = (kind: SecretKind) => (): SecretKind => kind;
const when =
  (kind: SecretKind, test: (c: Candidate) => boolean) =>
  (c: Candidate): SecretKind | undefined =>
    test(c) ? kind : undefined;

/** Not preceded by a token character, so `task-…` never yields `sk-…`. */
const START = String.raw`(?<![A-Za-z0-9_-])`;
const END = String.raw`(?![A-Za-z0-9_-])`;
const NAME = String.raw`(?<name>[A-Za-z_][\w.-]{0,63})`;
/**
 * A quoted value, or an unquoted one up to whitespace or syntax. `&` ends a value only where query
 * strings occur (`a=1&password=…`); in prose and config it is part of the password.
 */
const value = (stops: string): string => String.raw`(?<secret>\\?"[^"\n]*\\?"|'[^'\n]*'|[^\s"'\x60,;<>(){}\[\]|=${stops}-][^\s"'\x60,;<>(){}\[\]|${stops}]*)`;
const VALUE = value('');
const QUERY_VALUE = value('&');

/** AWS secret keys: 40 base64 chars with both cases and a digit (a hex git SHA has no upper case). */
const awsSecret = (c: Candidate): boolean => /[a-z]/.test(c.value) && /[A-Z]/.test(c.value) && /\d/.test(c.value);

/** `name = value`: the name must hold a secret and the value be a real one. `prose` is stricter. */
function assigned(prose: boolean) {
  return (c: Candidate): SecretKind | undefined => {
    const family = c.name === undefined ? undefined : nameFamily(c.name);
    if (family === undefined || isPlaceholder(c.value) || isCodeReference(c)) return undefined;
    if (c.value.toLowerCase() === c.name?.toLowerCase()) return undefined;
    if (family === 'secret') return looksRandom(c.value) ? family : undefined;
    if (prose && !c.quoted) return looksLikePassword(c.value) ? family : undefined;
    return c.value.length >= 2 ? family : undefined;
  };
}

const PASSWORD_WORD = String.raw`(?<name>passwords?|passwd|passphrase|pass|pw|pwd)`;
/** Right before a value: not "pass" ("pass foo2 to it" is code talk). */
const PASSWORD_WORD_NEXT_TO = String.raw`(?<name>passwords?|passwd|passphrase|pw|pwd)`;

/** A password named in prose: quoted, anything; unquoted, a word with a digit or a symbol in it. */
const prosePassword = (c: Candidate): SecretKind | undefined => {
  if (isPlaceholder(c.value) || isCodeReference(c)) return undefined;
  return (c.quoted ? c.value.length >= 2 : looksLikePassword(c.value.replace(/[.,;:!?)]+$/, ''))) ? 'password' : undefined;
};

/** `export NAME=value`, `-e NAME=value`: a secret-named variable's value is masked unless it is a stand-in or a reference. */
const exported = (c: Candidate): SecretKind | undefined => {
  const family = c.name === undefined ? undefined : nameFamily(c.name);
  // `-e PASS=s3cr3t.Pg` is not code reading a secret, whatever its dots: only a call or an index is.
  if (family === undefined || isPlaceholder(c.value) || c.next === '(' || c.next === '[') return undefined;
  return c.value.length >= 2 ? family : undefined;
};

/** A password after `user:` on a command line: anything but a stand-in (`$PASS`, `<password>`). */
const prosePasswordOrAny = (c: Candidate): SecretKind | undefined => (isPlaceholder(c.value) ? undefined : 'password');
/**
 * What is fed to `sudo -S` is the password, however weak it looks ("jjjj"): only a reference to one
 * ($PW, {{pw}}, <password>) or a mask already applied is not.
 */
const fedToSudo = (c: Candidate): SecretKind | undefined => (isReference(c.value) ? undefined : 'password');

export const RULES: readonly SecretRule[] = [
  // An unterminated block (a truncated paste) is masked to the end of the text.
  {
    pattern: rx(String.raw`-----BEGIN[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----|$)`),
    kind: always('private_key'),
  },
  { pattern: rx(String.raw`${START}sk-ant-[A-Za-z0-9_-]{20,}`), kind: always('anthropic_key') },
  // A real key has digits; `sk-` followed by a long slug of words does not.
  { pattern: rx(String.raw`${START}sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}`), kind: when('openai_key', (c) => /\d/.test(c.value)) },
  { pattern: rx(String.raw`${START}(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}${END}`), kind: always('stripe_key') },
  { pattern: rx(String.raw`${START}whsec_[A-Za-z0-9+/]{24,}`), kind: always('stripe_webhook_secret') },
  { pattern: rx(String.raw`${START}(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})${END}`), kind: always('github_token') },
  { pattern: rx(String.raw`${START}glpat-[A-Za-z0-9_-]{20,}`), kind: always('gitlab_token') },
  { pattern: rx(String.raw`${START}(?:xox[abposr]-[A-Za-z0-9-]{10,}|xapp-\d-[A-Za-z0-9-]{10,})`), kind: always('slack_token') },
  {
    pattern: rx(String.raw`https://hooks\.slack\.com/(?:services|workflows|triggers)/(?<secret>[A-Za-z0-9_/-]{10,})`),
    kind: when('slack_webhook', (c) => looksRandom(c.value)),
  },
  { pattern: rx(String.raw`(?<![A-Za-z0-9])(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Za-z0-9])`), kind: always('aws_access_key_id') },
  // The secret key has no prefix: recognised by its shape shortly after "secret" or an access key id.
  {
    pattern: rx(String.raw`(?:secret|AKIA[A-Z0-9]{16}|ASIA[A-Z0-9]{16})[^\n]{0,80}?(?<![A-Za-z0-9/+])(?<secret>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])`, 'i'),
    kind: when('aws_secret_key', awsSecret),
  },
  { pattern: rx(String.raw`${START}AIza[0-9A-Za-z_-]{35}${END}`), kind: always('google_api_key') },
  { pattern: rx(String.raw`${START}eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*`), kind: always('jwt') },
  { pattern: rx(String.raw`${START}npm_[A-Za-z0-9]{36}${END}`), kind: always('npm_token') },
  { pattern: rx(String.raw`${START}SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}${END}`), kind: always('sendgrid_key') },
  // Layer 3: the same prefixes at any length, judged by charset and entropy.
  ...PREFIXED_RULES,
  // scheme://user:password@host — only the password is masked.
  {
    pattern: rx(String.raw`(?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]{1,20}://[^\s:/@"'<>]*:(?<secret>[^\s@/"'<>]+)@[^\s/@]`),
    kind: when('url_password', (c) => !isPlaceholder(c.value)),
  },
  {
    pattern: rx(String.raw`\bAuthorization["']?\s*[:=]\s*["']?(?:Bearer|Basic|Token|Bot)\s+(?<secret>[A-Za-z0-9._~+/-]+=*)`, 'i'),
    kind: when('bearer_token', (c) => !isPlaceholder(c.value)),
  },
  { pattern: rx(String.raw`\bBearer\s+(?<secret>[A-Za-z0-9._~+/-]{16,}=*)`), kind: when('bearer_token', (c) => looksRandom(c.value)) },
  // JSON / dict keys: "password": "…", \"api_key\": \"…\" (JSON inside a string).
  { pattern: rx(String.raw`(?<kq>\\?["'])${NAME}\k<kq>\s*[:=]\s*${VALUE}`), kind: assigned(false) },
  // A key at the start of a line: YAML, INI, TOML, .env, `export`. Before name=value, whose values
  // stop at `&`, so `DB_PASSWORD=a&b` is masked whole.
  { pattern: rx(String.raw`^[ \t]*(?:export[ \t]+|-[ \t]+)?${NAME}[ \t]*[:=][ \t]*${VALUE}`, 'm'), kind: assigned(false) },
  // An environment variable set for a command: `cd x && export PGPASSWORD=…`, `docker run -e API_TOKEN=…`.
  // Set this way a secret-named value is the secret, whatever its shape.
  { pattern: rx(String.raw`(?:\bexport[ \t]+|(?<![\w-])(?:-e|--env)(?:[ \t]+|=))${NAME}=${VALUE}`), kind: exported },
  // `curl -u user:password` and its kin: only the password is masked.
  {
    pattern: rx(
      String.raw`\b(?:curl|wget|http|https|xh|xhs|httpie|grpcurl|hey|ab)\b[^\n|;&]{0,200}?[ \t](?:-u|--user)(?:[ \t]*|=)["']?[^\s:"']+:(?<secret>[^\s"']+)`,
    ),
    kind: prosePasswordOrAny,
  },
  // A password fed to sudo on its stdin: `echo "pw" | sudo -S …`, `sudo -S cmd <<< pw`.
  {
    pattern: rx(String.raw`\b(?:echo|printf)(?:[ \t]+-[a-zA-Z]+)*[ \t]+${VALUE}[ \t]*\|[ \t]*sudo\b[^\n|;&]{0,40}?[ \t]-[a-zA-Z]*S\b`),
    kind: fedToSudo,
    anyValue: true,
  },
  { pattern: rx(String.raw`\bsudo\b[^\n|;&]{0,40}?[ \t]-[a-zA-Z]*S\b[^\n|;&]{0,120}?<<<[ \t]*${VALUE}`), kind: fedToSudo, anyValue: true },
  // name=value anywhere: shell, query strings, --flag=value.
  { pattern: rx(String.raw`(?<![\w.$-])(?:--?)?${NAME}=${QUERY_VALUE}`), kind: assigned(false) },
  // --password value
  { pattern: rx(String.raw`(?<![\w-])--${NAME}[ \t]+${VALUE}`), kind: assigned(false) },
  // -p value (or -pvalue) on the commands where -p is the password: `docker login -u bob -p …`, `mysql -p…`.
  {
    pattern: rx(String.raw`\b(?:login|mysql|mysqladmin|mysqldump|sshpass|htpasswd)\b[^\n]{0,80}?[ \t]-p[ \t]*${VALUE}`),
    kind: prosePassword,
  },
  // Prose and logs: "the db password is hunter2", "token: abc123…".
  { pattern: rx(String.raw`(?<![\w.$-])${NAME}(?:[ \t]*:[ \t]*|[ \t]+(?:is|was|=)[ \t]+)${VALUE}`), kind: assigned(true) },
  // Prose with a short qualifier or a shorthand: "the password for the staging db is hunter2", "the pw is hunter2".
  {
    pattern: rx(
      String.raw`(?<![\w.$-])${PASSWORD_WORD}(?:[ \t]+(?:for|of|to|on|at)(?:[ \t]+[\w.@/-]+){1,4})?(?:[ \t]*:[ \t]*|[ \t]+(?:is|was|=)[ \t]+)${VALUE}`,
      'i',
    ),
    kind: prosePassword,
  },
  // Prose with nothing between: "…and password hunter2 for the admin", "use pw s3cr3t! to log in".
  { pattern: rx(String.raw`(?<![\w.$-])${PASSWORD_WORD_NEXT_TO}[ \t]+${VALUE}`, 'i'), kind: prosePassword },
];
