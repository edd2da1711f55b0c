/**
 * Personal data: email addresses, phone numbers and the account name in local paths are masked by
 * redact; their look-alikes (repository addresses, package specs, versions, dates, ports, IPs,
 * hashes, ids) are left exactly as written. A text that was only personal data is flagged for
 * dropping, and a pointer at a screenshot or a download is flagged as a one-off.
 */
import { describe, expect, it } from 'vitest';
import { redact } from '../../src/redact/redact.js';

interface Positive {
  text: string;
  value: string;
  kind: 'email' | 'phone' | 'user';
}

const POSITIVES: Positive[] = [
  { kind: 'email', value: 'priya.raman@northwind-labs.io', text: 'send the weekly report to priya.raman@northwind-labs.io every friday' },
  { kind: 'email', value: 'ops+alerts@fabrikam.co.uk', text: 'Alerts go to ops+alerts@fabrikam.co.uk, not to the team channel.' },
  { kind: 'email', value: 'k.osei@contoso.com', text: 'git config user.email "k.osei@contoso.com" for this repo' },
  { kind: 'email', value: 'm_lindqvist@mailbox.se', text: 'Reviewer: Maja <m_lindqvist@mailbox.se>' },
  { kind: 'email', value: 'tomasz@kowalski.dev', text: 'the license header names mailto:tomasz@kowalski.dev as the contact' },
  { kind: 'email', value: '8812345+hkimura@users.noreply.github.com', text: 'commits are authored as 8812345+hkimura@users.noreply.github.com' },
  { kind: 'phone', value: '+44 20 7946 0958', text: 'If the pager fails, call +44 20 7946 0958.' },
  { kind: 'phone', value: '+1-415-555-0132', text: 'the on-call number is +1-415-555-0132 at night' },
  { kind: 'phone', value: '+33 6 12 34 56 78', text: 'Léa is on +33 6 12 34 56 78 during the migration' },
  { kind: 'phone', value: '+49 151 23456789', text: 'Ping Jonas (+49 151 23456789) before touching billing.' },
  { kind: 'phone', value: '0049 30 901820', text: 'the Berlin office line is 0049 30 901820' },
  { kind: 'phone', value: '+91 98765 43210', text: 'vendor support: +91 98765 43210' },
  { kind: 'phone', value: '(415) 555-0132', text: 'my cell is (415) 555-0132 if the deploy breaks' },
  { kind: 'phone', value: '212-555-0187', text: 'escalate to 212-555-0187 after two failed retries' },
  { kind: 'phone', value: '020 7946 0958', text: 'ring the London desk on 020 7946 0958' },
  { kind: 'phone', value: '06 12 34 56 78', text: "Léa's mobile: 06 12 34 56 78, text her before the release" },
  { kind: 'phone', value: '4155550132', text: 'my phone is 4155550132' },
  { kind: 'user', value: 'rkapoor', text: 'the build cache is under /home/rkapoor/.cache/bazel and must be cleared weekly' },
  { kind: 'user', value: 'annika', text: 'Open /Users/annika/src/shop/README.md for the setup steps' },
  { kind: 'user', value: 'Ferreira', text: 'The installer writes C:\\Users\\Ferreira\\AppData\\Local\\acme\\config.ini' },
  { kind: 'user', value: 'olu', text: '{"cwd":"C:\\\\Users\\\\olu\\\\work\\\\api"}' },
  { kind: 'user', value: 'dwight', text: 'logs land in /var/home/dwight/logs on the silverblue box' },
];

/** Code and prose that only look like personal data: none of it may change. */
const LOOKALIKES = [
  'git clone git@github.com:acme/payments.git',
  'git remote add upstream ssh://git@gitlab.internal.acme.io:2222/platform/infra.git',
  'pip install git+ssh://git@github.com/acme/tools.git@v2.1.0',
  'ssh deploy@prod-01.acme.io "systemctl restart api"',
  'ssh -p 2222 -i ~/.ssh/deploy_key ops@bastion.acme.net',
  'rsync -avz dist/ www@static.acme.io:/srv/www/',
  'scp build.tar.gz ci@builder.acme.io:/tmp/',
  'ubuntu@ip-10-0-1-17.ec2.internal:~$ df -h',
  'Co-Authored-By: Claude <noreply@anthropic.com>',
  'Signed-off-by: dependabot[bot] <49699333+dependabot[bot]@users.noreply.github.com>',
  'From: GitHub <notifications@github.com>',
  'the fixture user is test.user@example.com',
  'seed data uses alice@acme.test and bob@corp.example',
  'npm i @types/node@20.19.43 @acme/ui@^3.2.0',
  'import { Component } from "@angular/core"; @Component({ selector: "app" })',
  '@media (max-width: 600px) { .nav { display: none } }',
  'use the retina asset logo@2x.png and icon@3x.webp',
  'go get golang.org/x/tools@v0.24.0',
  'image: ghcr.io/acme/api@sha256:4f5e6d7c8b9a0f1e2d3c4b5a69788796a5b4c3d2e1f0a9b8c7d6e5f4a3b2c1d0',
  'git reflog shows HEAD@{3} before the rebase',
  'the result is X@W.T in numpy',
  'released 2.14.3 on 2026-11-27 at 10:15:32',
  'bump the version to 1.2.3456789 and tag it',
  'listening on 192.168.10.214:8080 and [::1]:8443',
  'postgres runs on port 5432, redis on 6379, the api on 3000',
  'commit 9fceb02d0ae598e95dc970b74767f19372d61af8 fixed it',
  'the request id was 7f3e9a12-4b6c-4d8e-9f01-23456789abcd',
  'order 1234-5678-9012 failed with code 0x80070005',
  'the epoch was 1732700000 and in ms 1732700000123',
  'sizes 02 04 06 08 10 are in stock',
  'lines 120-345 of src/server.ts',
  'Screen resolution 1920x1080, 60 Hz, scale 1.25',
  'issue #4155550132 in the tracker',
  'the CI cache lives in /home/runner/work/app/app',
  'docker images use /home/node/app as the workdir',
  'shared files are in /Users/Shared/Assets',
  'see https://docs.acme.io/home/getting-started for the guide',
  'the placeholder path is /home/$USER/.config and C:\\Users\\%USERNAME%\\AppData',
  'the tilde path ~/projects/api keeps no name',
  'a diff hunk @@ -12,7 +12,8 @@ in parser.ts',
  'the ISBN is 978-3-16-148410-0',
  'the cron line is 0 0 * * 1-5',
  'phone numbers are stored as E.164 strings in the contacts table',
];

describe('personal data masked', () => {
  it.each(POSITIVES)('masks $kind in "$text"', ({ text, value, kind }) => {
    const r = redact(text);
    expect(r.text).not.toContain(value);
    expect(r.text).toContain(`[REDACTED:${kind}]`);
    expect(r.personal.map((p) => p.kind)).toContain(kind);
    expect(r.found).toEqual([]); // personal data is not counted as a secret
    expect(redact(r.text).text).toBe(r.text);
  });

  it('keeps the rest of a path: only the account name goes', () => {
    expect(redact('the build cache is under /home/rkapoor/.cache/bazel').text).toBe('the build cache is under /home/[REDACTED:user]/.cache/bazel');
    expect(redact('C:\\Users\\Ferreira\\AppData\\x.ini').text).toBe('C:\\Users\\[REDACTED:user]\\AppData\\x.ini');
  });

  it('leaves every look-alike untouched', () => {
    const touched = LOOKALIKES.filter((t) => redact(t).text !== t).map((t) => `${t} => ${redact(t).text}`);
    expect(touched).toEqual([]);
  });
});

describe('what is only personal data is flagged to drop', () => {
  it.each(['my email is s.novak@brightline.io', 'Phone: +44 7911 123456', 'you can reach me at (646) 555-0199', 'contact: j.wu@fernhill.org'])('"%s"', (t) => {
    expect(redact(t).onlySecret).toBe(true);
  });

  it.each([
    'send the invoices to billing@tailspin.io as PDF, never as a zip',
    'page the on-call engineer at +1 646 555 0199 when the queue backs up for 10 minutes',
  ])('keeps "%s": it says more than the address', (t) => {
    const r = redact(t);
    expect(r.onlySecret).toBe(false);
    expect(r.personal).toHaveLength(1);
  });
});

describe('a one-off pointer at a screenshot or a download', () => {
  it.each([
    'look at /home/mjensen/Downloads/Screenshot 2026-11-20 at 10.15.32.png',
    'here: /Users/tkato/Desktop/Screen Shot 2026-03-02 at 9.41.07 AM.png the header overlaps',
    'I attached /var/folders/7q/k2x9/T/TemporaryItems/NSIRD_screencaptureui_Ab12/Screenshot 2026-11-20.png',
    'the file is C:\\Users\\lpetrov\\Downloads\\export-2026-11.csv',
    'check ~/Downloads/report.pdf',
    'see /tmp/clipboard-image-3.png',
  ])('"%s" is a one-off', (t) => {
    expect(redact(t).oneOffPointer).toBe(true);
  });

  it.each([
    'the release notes template lives in docs/release.md and every release uses it',
    'downloads of the installer are served from the cdn, never from the api host',
    'put build artefacts under /tmp only in CI; locally they go to .cache/build so they survive reboots and can be inspected later',
  ])('"%s" stands', (t) => {
    expect(redact(t).oneOffPointer).toBe(false);
  });
});
