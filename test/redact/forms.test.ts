/**
 * Command-line credentials, keys split across lines, and redaction's budget: each form
 * is masked and the rest of its sentence kept word for word.
 */
import { describe, expect, it } from 'vitest';
import { redact, SCAN_BUDGET } from '../../src/redact/redact.js';
import { B64URL, j, Seeded } from '../fixtures/secrets/random.js';

const r = new Seeded(0x30f0);
const PW = `Pw-9x${r.key(5)}`;
const ANTHROPIC = j('-', 'sk', 'ant', 'api03', r.key(95, B64URL));
const GH = j('_', 'ghp', r.key(36));
const HEX32 = r.str(32, '0123456789abcdef');

/** Each form: the text, the value that must be gone, and what it must read as once masked. */
const FORMS: [string, string, string, string][] = [
  [
    'curl -u in prose',
    `Always call the staging API with curl -u deploy:${PW} and then the health page.`,
    PW,
    'Always call the staging API with curl -u deploy:[REDACTED:password] and then the health page.',
  ],
  ['curl --user=', `curl --user=ci:${PW} -X POST https://ci.example.com/job`, PW, 'curl --user=ci:[REDACTED:password] -X POST https://ci.example.com/job'],
  ['curl -uuser:pass', `curl -uadmin:${PW} http://localhost:9200`, PW, 'curl -uadmin:[REDACTED:password] http://localhost:9200'],
  [
    'a password piped to sudo -S',
    `Kill the blocking process: echo "${PW}" | sudo -S pkill cameracaptured`,
    PW,
    'Kill the blocking process: echo "[REDACTED:password]" | sudo -S pkill cameracaptured',
  ],
  ['sudo -S with a here-string', `sudo -S apt install jq <<< ${PW}`, PW, 'sudo -S apt install jq <<< [REDACTED:password]'],
  // Fed to sudo, a weak password that looks like a stand-in is still the password.
  [
    'a weak password piped to sudo -S',
    'Fix: echo "jjjj" | sudo -S pkill cameracaptured',
    '"jjjj"',
    'Fix: echo "[REDACTED:password]" | sudo -S pkill cameracaptured',
  ],
  ['export PGPASSWORD', `cd /srv && export PGPASSWORD=${PW} && psql -h db`, PW, 'cd /srv && export PGPASSWORD=[REDACTED:password] && psql -h db'],
  [
    'export PGPASSWORD, a plain word',
    'Before psql always export PGPASSWORD=hunter2hunter so it does not prompt.',
    'hunter2hunter',
    'Before psql always export PGPASSWORD=[REDACTED:password] so it does not prompt.',
  ],
  ['export *_TOKEN', `export CIRCLE_TOKEN=${PW}`, PW, 'export CIRCLE_TOKEN=[REDACTED:secret]'],
  ['export *_SECRET', `export SLACK_SIGNING_SECRET=${PW}`, PW, 'export SLACK_SIGNING_SECRET=[REDACTED:secret]'],
  [
    'docker -e *PASSWORD',
    `docker run -e POSTGRES_PASSWORD=${PW} -p 5432:5432 postgres:16`,
    PW,
    'docker run -e POSTGRES_PASSWORD=[REDACTED:password] -p 5432:5432 postgres:16',
  ],
  [
    'docker -e *PASSWORD, dotted',
    'docker run -e MYSQL_ROOT_PASSWORD=s3cr3t.Pg -d mysql:8',
    's3cr3t.Pg',
    'docker run -e MYSQL_ROOT_PASSWORD=[REDACTED:password] -d mysql:8',
  ],
  ['docker --env *_TOKEN', `docker run --env API_TOKEN=${PW} -d app`, PW, 'docker run --env API_TOKEN=[REDACTED:secret] -d app'],
  ['a token in a push URL', `git push https://${GH}@github.com/acme/app.git main`, GH, 'git push https://[REDACTED:github_token]@github.com/acme/app.git main'],
  ['--dd-api-key=<32 hex>', `npm test -- --dd-api-key=${HEX32} --env ci`, HEX32, 'npm test -- --dd-api-key=[REDACTED:secret] --env ci'],
];

describe('command-line credentials', () => {
  it.each(FORMS)('%s: masked, the sentence kept', (_shape, text, value, masked) => {
    const out = redact(text).text;
    expect(out).not.toContain(value);
    expect(out).toBe(masked);
  });

  it.each([
    'curl -u "$DEPLOY_USER:$DEPLOY_PASSWORD" https://staging.example.com/health',
    'curl -u deploy:<password> https://staging.example.com',
    'export GITHUB_TOKEN=$(gh auth token)',
    'docker run -e POSTGRES_PASSWORD -p 5432:5432 postgres:16',
    'docker run -e POSTGRES_PASSWORD_FILE=/run/secrets/db postgres:16',
    'export TOKEN_TTL=3600',
    'git push -u origin main',
    'echo $SUDO_PASSWORD | sudo -S true',
    'echo hello | sudo tee /etc/motd',
    `the Twilio account SID is AC${HEX32} and the auth token lives in vault`,
    `TWILIO_ACCOUNT_SID=AC${HEX32}`,
    'pagination: nextPageToken=CiAKGjBpNDd2Nmp2Zml2cXRwYjBpOXA3',
  ])('leaves %s', (text) => {
    expect(redact(text).text).toBe(text);
  });
});

describe('keys split across lines', () => {
  it('masks both halves of a key broken across two lines, and keeps the words around it', () => {
    const [a, b] = [ANTHROPIC.slice(0, 63), ANTHROPIC.slice(63)];
    const out = redact(`my key is ${a}\n${b} and that is all`).text;
    expect(out).toBe('my key is [REDACTED:anthropic_key]\n[REDACTED:anthropic_key] and that is all');
  });

  it('masks both halves of a password set across a CRLF break', () => {
    const out = redact(`export PGPASSWORD=Zq${PW}\r\nXy7${PW}\r\nthen psql`).text;
    expect(out).toBe('export PGPASSWORD=[REDACTED:password]\r\n[REDACTED:password]\r\nthen psql');
  });

  it('does not join a key with the next line when that line sets a name of its own', () => {
    const out = redact(`GITHUB_TOKEN=${GH}\nDB_HOST=db.internal\nLOG_LEVEL=debug`).text;
    expect(out).toBe('GITHUB_TOKEN=[REDACTED:github_token]\nDB_HOST=db.internal\nLOG_LEVEL=debug');
  });
});

describe('the scan budget', () => {
  const big = (mb: number, spaces: boolean): string => {
    const unit = spaces ? 'the deploy ran fine ' : 'aZ3bY4cX5dW6eV7fU8gT';
    return unit.repeat(Math.ceil((mb * 1e6) / unit.length));
  };

  it('scans a 5 MB line with no spaces without overflowing the stack', () => {
    const text = big(5, false);
    expect(() => redact(text, { budget: Infinity })).not.toThrow();
  });

  it('masks a line past the budget whole and keeps the lines it could afford', () => {
    const text = `first ordinary line\n${big(5, false)}\nexport PGPASSWORD=${PW}\nlast ordinary line`;
    const r = redact(text);
    expect(r.text).toBe('first ordinary line\n[REDACTED:unscanned]\nexport PGPASSWORD=[REDACTED:password]\nlast ordinary line');
  });

  it('scans a text within the budget as one, however many lines', () => {
    const text = `${'x '.repeat(SCAN_BUDGET / 4)}\nthe webhook secret is ${ANTHROPIC.slice(0, 40)}`;
    expect(redact(text).text.endsWith('the webhook secret is [REDACTED:anthropic_key]')).toBe(true);
  });
});
