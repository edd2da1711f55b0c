import { describe, expect, it } from 'vitest';
import { redact, type SecretKind } from '../../src/redact/redact.js';
import { nameFamily } from '../../src/redact/secret-values.js';

// Every secret here is FAKE and assembled at run time from a seeded generator and split prefixes,
// so no real-looking credential sits verbatim in the repository for secret scanners to flag.
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
let state = 20250914;
function rand(length: number, alphabet = ALNUM): string {
  // Starts with upper, lower and digit so every value has the mix real keys have.
  let out = 'Q' + 'v' + '7';
  while (out.length < length) {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    out += alphabet[(state >>> 8) % alphabet.length];
  }
  return out.slice(0, length);
}
const j = (sep: string, ...parts: string[]): string => parts.join(sep);
const upper = (n: number): string => rand(n + 3, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567').slice(3);
const pem = (label: string): string =>
  [`-----${'BEGIN'} ${label}-----`, rand(64, `${ALNUM}+/`), rand(64, `${ALNUM}+/`), `${rand(20)}==`, `-----${'END'} ${label}-----`].join('\n');

interface Case {
  shape: string;
  kind: SecretKind;
  secret: string;
  text: (secret: string) => string;
  /** Text that must survive around the secret. */
  keeps?: string[];
}

const cases: Case[] = [
  {
    shape: 'Anthropic key in prose',
    kind: 'anthropic_key',
    secret: j('-', 'sk', 'ant', 'api03', rand(86, `${ALNUM}-_`), 'AA'),
    text: (s) => `my anthropic key is ${s}`,
  },
  {
    shape: 'Anthropic admin key in .env',
    kind: 'anthropic_key',
    secret: j('-', 'sk', 'ant', 'admin01', rand(60)),
    text: (s) => `ANTHROPIC_API_KEY=${s}`,
    keeps: ['ANTHROPIC_API_KEY='],
  },
  { shape: 'OpenAI legacy key', kind: 'openai_key', secret: `${j('-', 'sk', rand(20))}T3Blbk${'FJ'}${rand(20)}`, text: (s) => `openai.api_key = "${s}"` },
  {
    shape: 'OpenAI project key in JSON',
    kind: 'openai_key',
    secret: j('-', 'sk', 'proj', rand(40, `${ALNUM}_-`)),
    text: (s) => `{"openai_api_key": "${s}", "model": "gpt-4o"}`,
    keeps: ['"model": "gpt-4o"'],
  },
  { shape: 'OpenAI service-account key exported', kind: 'openai_key', secret: j('-', 'sk', 'svcacct', rand(48)), text: (s) => `export OPENAI_API_KEY=${s}` },
  { shape: 'Stripe live secret key in code', kind: 'stripe_key', secret: j('_', 'sk', 'live', rand(24)), text: (s) => `const stripe = new Stripe('${s}');` },
  { shape: 'Stripe restricted key', kind: 'stripe_key', secret: j('_', 'rk', 'live', rand(40)), text: (s) => `use restricted key ${s} for reporting` },
  { shape: 'Stripe test secret key', kind: 'stripe_key', secret: j('_', 'sk', 'test', rand(24)), text: (s) => `STRIPE_SECRET_KEY=${s}` },
  { shape: 'Stripe webhook secret', kind: 'stripe_webhook_secret', secret: j('_', 'whsec', rand(32)), text: (s) => `webhook signing secret: ${s}` },
  {
    shape: 'GitHub classic PAT in a remote URL',
    kind: 'github_token',
    secret: j('_', 'ghp', rand(36)),
    text: (s) => `git remote set-url origin https://${s}@github.com/acme/app.git`,
    keeps: ['@github.com/acme/app.git'],
  },
  { shape: 'GitHub OAuth token', kind: 'github_token', secret: j('_', 'gho', rand(36)), text: (s) => `gh auth token printed ${s}` },
  { shape: 'GitHub user-to-server token', kind: 'github_token', secret: j('_', 'ghu', rand(36)), text: (s) => `token ${s} expires in 8h` },
  {
    shape: 'GitHub app installation token',
    kind: 'github_token',
    secret: j('_', 'ghs', rand(36)),
    text: (s) => `curl -H "Authorization: token ${s}" https://api.github.com/repos`,
  },
  { shape: 'GitHub refresh token', kind: 'github_token', secret: j('_', 'ghr', rand(76)), text: (s) => `refresh_token=${s}` },
  { shape: 'GitHub fine-grained PAT', kind: 'github_token', secret: j('_', 'github', 'pat', rand(22), rand(59)), text: (s) => `GH_TOKEN=${s} gh pr list` },
  { shape: 'GitLab PAT', kind: 'gitlab_token', secret: j('-', 'glpat', rand(20)), text: (s) => `PRIVATE-TOKEN: ${s}` },
  { shape: 'Slack bot token', kind: 'slack_token', secret: j('-', 'xoxb', '2'.repeat(11), '3'.repeat(13), rand(24)), text: (s) => `SLACK_BOT_TOKEN=${s}` },
  {
    shape: 'Slack user token',
    kind: 'slack_token',
    secret: j('-', 'xoxp', '4'.repeat(11), '5'.repeat(12), rand(32)),
    text: (s) => `the user token ${s} can post as me`,
  },
  { shape: 'Slack app token (xoxa)', kind: 'slack_token', secret: j('-', 'xoxa', '2', rand(40)), text: (s) => `legacy workspace token ${s}` },
  {
    shape: 'Slack app-level token',
    kind: 'slack_token',
    secret: j('-', 'xapp', '1', upper(11), '6'.repeat(13), rand(64)),
    text: (s) => `socket mode uses ${s}`,
  },
  {
    shape: 'Slack webhook URL',
    kind: 'slack_webhook',
    secret: j('/', 'T' + upper(8), 'B' + upper(8), rand(24)),
    text: (s) => `post alerts to https://hooks.slack.com/services/${s}`,
    keeps: ['https://hooks.slack.com/services/'],
  },
  {
    shape: 'AWS access key id (AKIA)',
    kind: 'aws_access_key_id',
    secret: `AKIA${upper(16)}`,
    text: (s) => `[default]\naws_access_key_id = ${s}\nregion = eu-west-1`,
    keeps: ['region = eu-west-1'],
  },
  { shape: 'AWS temporary key id (ASIA)', kind: 'aws_access_key_id', secret: `ASIA${upper(16)}`, text: (s) => `AccessKeyId: ${s}` },
  { shape: 'AWS secret key in credentials file', kind: 'aws_secret_key', secret: rand(40, `${ALNUM}+/`), text: (s) => `aws_secret_access_key = ${s}` },
  {
    shape: 'AWS secret key in prose',
    kind: 'aws_secret_key',
    secret: rand(40, `${ALNUM}+/`),
    text: (s) => `the secret for that access key is ${s} (rotate it monthly)`,
  },
  {
    shape: 'AWS secret key in sts JSON',
    kind: 'aws_secret_key',
    secret: rand(40, `${ALNUM}+/`),
    text: (s) => `{"Credentials": {"SecretAccessKey": "${s}", "Expiration": "2025-09-14T10:00:00Z"}}`,
  },
  {
    shape: 'Google API key',
    kind: 'google_api_key',
    secret: `AI${'za'}${rand(35, `${ALNUM}_-`)}`,
    text: (s) => `maps.googleapis.com/maps/api/js?key=${s}&callback=init`,
  },
  {
    shape: 'JWT in a query string',
    kind: 'jwt',
    secret: j('.', `ey${'J'}${rand(30, `${ALNUM}_-`)}`, `ey${'J'}${rand(60, `${ALNUM}_-`)}`, rand(43, `${ALNUM}_-`)),
    text: (s) => `GET /ws?access_token=${s} HTTP/1.1`,
  },
  {
    shape: 'RSA private key block',
    kind: 'private_key',
    secret: pem('RSA PRIVATE KEY'),
    text: (s) => `here is the deploy key:\n${s}\nput it in ~/.ssh`,
    keeps: ['put it in ~/.ssh'],
  },
  { shape: 'OpenSSH private key block', kind: 'private_key', secret: pem('OPENSSH PRIVATE KEY'), text: (s) => s },
  { shape: 'PGP private key block', kind: 'private_key', secret: pem('PGP PRIVATE KEY BLOCK'), text: (s) => `gpg --import <<EOF\n${s}\nEOF` },
  {
    shape: 'PKCS8 key escaped in service-account JSON',
    kind: 'private_key',
    secret: pem('PRIVATE KEY').replaceAll('\n', '\\n'),
    text: (s) => `{"type": "service_account", "private_key": "${s}\\n", "client_email": "ci@proj.iam.gserviceaccount.com"}`,
    keeps: ['"client_email"'],
  },
  {
    shape: 'password in a database URL',
    kind: 'url_password',
    secret: `Pg${rand(14)}`,
    text: (s) => `DATABASE_URL=postgres://app:${s}@db.internal:5432/app`,
    keeps: ['postgres://app:', '@db.internal:5432/app'],
  },
  {
    shape: 'password in a redis URL without user',
    kind: 'url_password',
    secret: rand(18),
    text: (s) => `redis://:${s}@cache:6379/0`,
    keeps: ['@cache:6379/0'],
  },
  {
    shape: 'password in an https URL',
    kind: 'url_password',
    secret: `tk${rand(20)}`,
    text: (s) => `pip install --index-url https://build:${s}@pypi.acme.dev/simple pkg`,
  },
  {
    shape: 'password= in a query string',
    kind: 'password',
    secret: `Sun${rand(6)}!`,
    text: (s) => `GET /login?user=bob&password=${s}&next=/home`,
    keeps: ['&next=/home'],
  },
  {
    shape: 'passwd: in YAML',
    kind: 'password',
    secret: `b1ue-${rand(8)}`,
    text: (s) => `smtp:\n  user: mailer\n  passwd: ${s}\n  port: 587`,
    keeps: ['port: 587'],
  },
  {
    shape: '"password" in JSON',
    kind: 'password',
    secret: `C0rrect horse ${rand(6)}`,
    text: (s) => `{"username": "admin", "password": "${s}"}`,
    keeps: ['"username": "admin"'],
  },
  { shape: 'token= assignment', kind: 'secret', secret: rand(32, 'abcdef0123456789'), text: (s) => `./deploy.sh token=${s} env=prod`, keeps: ['env=prod'] },
  { shape: 'secret= assignment', kind: 'secret', secret: rand(24), text: (s) => `secret=${s}` },
  { shape: 'api_key= quoted in Python', kind: 'secret', secret: rand(32), text: (s) => `client = Client(api_key='${s}')` },
  {
    shape: '.env *_PASSWORD with &',
    kind: 'password',
    secret: `p&${rand(10)}#x`,
    text: (s) => `DB_HOST=db\nDB_PASSWORD=${s}\nDB_PORT=5432`,
    keeps: ['DB_HOST=db', 'DB_PORT=5432'],
  },
  { shape: '.env *_SECRET', kind: 'secret', secret: rand(48), text: (s) => `SESSION_SECRET=${s}` },
  { shape: '.env *_TOKEN quoted', kind: 'secret', secret: rand(40), text: (s) => `export DEPLOY_TOKEN="${s}"` },
  { shape: '.env *_KEY', kind: 'secret', secret: rand(32), text: (s) => `MAILGUN_SIGNING_KEY=${s}` },
  { shape: '.env *_PASS', kind: 'password', secret: `m4il${rand(6)}`, text: (s) => `SMTP_PASS=${s}` },
  {
    shape: 'Authorization: Bearer header',
    kind: 'bearer_token',
    secret: rand(40, `${ALNUM}._-`),
    text: (s) => `curl -H 'Authorization: Bearer ${s}' https://api.acme.dev/v1/me`,
  },
  { shape: 'Authorization: Basic header', kind: 'bearer_token', secret: `${rand(30, `${ALNUM}+/`)}==`, text: (s) => `Authorization: Basic ${s}` },
  { shape: 'bare Bearer token in a log', kind: 'bearer_token', secret: rand(32, `${ALNUM}-_`), text: (s) => `sent Bearer ${s} to upstream` },
  { shape: 'npm token', kind: 'npm_token', secret: j('_', 'npm', rand(36)), text: (s) => `NODE_AUTH_TOKEN: ${s}` },
  { shape: '.npmrc _authToken', kind: 'secret', secret: rand(36, 'abcdef0123456789-'), text: (s) => `//registry.acme.dev/:_authToken=${s}` },
  { shape: 'client_secret in Python', kind: 'secret', secret: rand(40, `${ALNUM}~._-`), text: (s) => `    client_secret = "${s}"` },
  { shape: '--password flag', kind: 'password', secret: `Hx${rand(9)}`, text: (s) => `mysql -u root --password ${s} -h 127.0.0.1`, keeps: ['-h 127.0.0.1'] },
  { shape: '--password= flag', kind: 'password', secret: `Wq${rand(9)}`, text: (s) => `pg_dump --password=${s} app` },
  { shape: 'password in prose', kind: 'password', secret: `Tr0ub4dor&${rand(3)}`, text: (s) => `fyi the staging db password is ${s}.` },
  { shape: 'SendGrid key', kind: 'sendgrid_key', secret: j('.', 'SG', rand(22, `${ALNUM}_-`), rand(43, `${ALNUM}_-`)), text: (s) => `SENDGRID_API_KEY=${s}` },
  {
    shape: 'api_key in JSON inside a JSON string',
    kind: 'secret',
    secret: rand(32),
    text: (s) => `{"input": "{\\"api_key\\":\\"${s}\\",\\"region\\":\\"eu\\"}"}`,
    keeps: ['region'],
  },
  { shape: 'docker config auth', kind: 'secret', secret: `${rand(26, `${ALNUM}+/`)}==`, text: (s) => `{"auths": {"ghcr.io": {"auth": "${s}"}}}` },
  { shape: 'X-API-Key header', kind: 'secret', secret: rand(32), text: (s) => `X-API-Key: ${s}` },
];

describe('redact: secrets are masked', () => {
  it('covers at least 30 distinct shapes', () => {
    expect(new Set(cases.map((c) => c.shape)).size).toBe(cases.length);
    expect(cases.length).toBeGreaterThanOrEqual(30);
  });

  it.each(cases)('$shape', ({ kind, secret, text, keeps }) => {
    const input = text(secret);
    const result = redact(input);
    expect(result.text).not.toContain(secret);
    expect(result.text).toContain(`[REDACTED:${kind}]`);
    expect(result.found.map((h) => h.kind)).toContain(kind);
    for (const kept of keeps ?? []) expect(result.text).toContain(kept);
    // Hits point at the secret in the input (trailing punctuation may be masked with it).
    const hit = result.found.find((h) => h.kind === kind);
    const masked = hit === undefined ? '' : input.slice(hit.start, hit.end);
    expect(masked.startsWith(secret) && masked.length - secret.length <= 1).toBe(true);
  });

  it('is idempotent: masked text has nothing left to mask', () => {
    for (const c of cases) {
      const once = redact(c.text(c.secret)).text;
      expect(redact(once)).toMatchObject({ text: once, found: [] });
    }
  });

  it('masks several secrets in one text, in order', () => {
    const gh = j('_', 'ghp', rand(36));
    const pw = `Zz${rand(10)}`;
    const result = redact(`GITHUB_TOKEN=${gh}\nDB_PASSWORD=${pw}\nLOG_LEVEL=debug`);
    expect(result.text).toBe('GITHUB_TOKEN=[REDACTED:github_token]\nDB_PASSWORD=[REDACTED:password]\nLOG_LEVEL=debug');
    expect(result.found.map((h) => h.kind)).toEqual(['github_token', 'password']);
  });
});

describe('redact: ordinary text is left alone', () => {
  const negatives = [
    'Fixed in commit 9fceb02d0ae598e95dc970b74767f19372d61af8 on main.',
    'See 9fceb02 and a1b2c3d for the revert.',
    'the secret commit was 9fceb02d0ae598e95dc970b74767f19372d61af8',
    'Session 5f0e8d2a-3b7c-4e19-9a61-2c4d8b7e1f03 resumed.',
    'Edit /home/alice/.ssh/id_ed25519.pub and src/auth/token-refresh.ts',
    'Reset your password from the settings page.',
    'The password must be at least 12 characters long.',
    'Password: ',
    'Upgraded to v2.14.3 (node 20.19.0, typescript 5.9.3).',
    'Listening on http://localhost:8080, postgres at 127.0.0.1:5432',
    'max_tokens=4096 temperature=0.2 tokenizer=cl100k_base',
    'interface Login { password: string; token?: string }',
    '    password = getpass.getpass("DB password: ")',
    'const token = await getToken();',
    'export API_KEY="${API_KEY}"',
    'Authorization: Bearer $TOKEN',
    'Authorization: Bearer <token>',
    `Stripe.js takes the publishable key ${j('_', 'pk', 'live', 'X1y2Z3a4B5c6D7e8F9g0')}`,
    'PWD=/home/alice/project',
    'SECRET_KEY_PATH=/etc/app/secret.key',
    'The token expired; run gh auth login again.',
    'git clone git@github.com:acme/app.git && ssh -p 2222 git@host',
    'run the task-runner-with-a-very-long-name-0123456789 step',
    'token_type: bearer, expires_in: 3600',
    'password_reset_token_ttl: 3600',
    'sort_key=created_at primary_key: id',
    'echo "$PW" | docker login -u bob --password-stdin ghcr.io',
    '  password: ${{ secrets.DB_PASSWORD }}',
    'token: GITHUB_TOKEN',
    'if (user.password === hashed) return true;',
    'The api key is stored in the vault under billing/prod.',
  ];

  it('has at least 15 negative cases', () => expect(negatives.length).toBeGreaterThanOrEqual(15));

  it.each(negatives)('%s', (text) => {
    // The account name in a local path is personal data (personal.test.ts): masked, and no secret.
    const personal = text.replace(/\/home\/alice\b/, '/home/[REDACTED:user]');
    expect(redact(text)).toMatchObject({ text: personal, found: [], onlySecret: false, oneOffPointer: false });
  });
});

describe('names that hold secrets', () => {
  it.each([
    ['DB_PASSWORD', 'password'],
    ['smtpPassword', 'password'],
    ['DB_PASS', 'password'],
    ['mysql_pwd', 'password'],
    ['GITHUB_TOKEN', 'secret'],
    ['accessToken', 'secret'],
    ['_authToken', 'secret'],
    ['client_secret', 'secret'],
    ['SECRET_KEY_BASE', 'secret'],
    ['api_key', 'secret'],
    ['APIKey', 'secret'],
    ['x-api-key', 'secret'],
    ['auth', 'secret'],
    ['PWD', undefined],
    ['pass', undefined],
    ['key', undefined],
    ['max_tokens', undefined],
    ['tokenizer', undefined],
    ['SECRET_KEY_PATH', undefined],
    ['password_reset_token_ttl', undefined],
    ['STRIPE_PUBLISHABLE_KEY', undefined],
    ['sort_key', undefined],
  ])('%s → %s', (name, family) => {
    expect(nameFamily(name)).toBe(family);
  });
});

describe('redact: onlySecret', () => {
  const key = j('-', 'sk', 'proj', rand(40));

  it('is true when nothing but framing remains', () => {
    expect(redact(`my OpenAI key is ${key}`).onlySecret).toBe(true);
    expect(redact(`OPENAI_API_KEY=${key}`).onlySecret).toBe(true);
    expect(redact(`Remember this: ${key}`).onlySecret).toBe(true);
    expect(redact(`here is the staging db password: Hunt${rand(6)}`).onlySecret).toBe(true);
    expect(redact(`my gh token if you need it for the chart repo: ${j('_', 'ghp', rand(36))}`).onlySecret).toBe(true);
    expect(redact(`Test-mode signing secret is ${j('_', 'whsec', rand(32))} (it's in 1password too).`).onlySecret).toBe(true);
    expect(redact(pem('OPENSSH PRIVATE KEY')).onlySecret).toBe(true);
  });

  it('is false when the text says something beyond the secret', () => {
    expect(redact(`Use the key ${key} only for the billing service deploys in production`).onlySecret).toBe(false);
    expect(redact(`Deploys need DB_PASSWORD=Zq${rand(8)} set in the CI environment before migrations run`).onlySecret).toBe(false);
    expect(redact(`The staging API key is ${key} and it rotates every 30 days: ask ops before a rotation.`).onlySecret).toBe(false);
  });

  it('is false when nothing was masked, however short the text', () => {
    expect(redact('my key').onlySecret).toBe(false);
    expect(redact('').onlySecret).toBe(false);
  });
});

describe('redact: cost', () => {
  // Rejected matches are skipped whole; retrying inside long values once made these take minutes.
  it.each([
    ['name:value chains', 'a:'.repeat(150_000)],
    ['repeated assignments', 'token='.repeat(100_000)],
    ['repeated quoted pairs', '"a":"'.repeat(100_000)],
    ['one long base64 run', `data=${'QUJD'.repeat(250_000)}`],
  ])('stays fast on %s', (_label, text) => {
    const started = performance.now();
    redact(text);
    expect(performance.now() - started).toBeLessThan(2000);
  });
});
