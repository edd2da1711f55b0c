/**
 * Kind before rank: what kind of statement each candidate is, read from its clause analysis, and
 * that length is no evidence (the same statement alone or inside a long message is read alike).
 */
import { describe, expect, it } from 'vitest';
import { collectCandidates } from '../../../src/memory/candidates/index.js';
import type { ExtractMessage } from '../../../src/memory/extract/types.js';
import { FEATURES } from '../../../src/memory/rank/features.js';
import { rank, type Ranked } from '../../../src/memory/rank/score.js';
import { sessionContext } from '../../../src/memory/rank/session-context.js';

function typed(texts: readonly string[]): ExtractMessage[] {
  return texts.map((text, i) => ({ id: `m${i}`, role: 'user', kind: 'text', origin: 'typed', text }));
}

function ranked(texts: readonly string[]): Ranked[] {
  const messages = typed(texts);
  return rank(collectCandidates(messages), sessionContext(messages));
}

const kindOfText = (text: string): string | undefined => ranked([text]).find((r) => r.candidate.text.startsWith(text.slice(0, 12)))?.kind;

describe('kind before rank', () => {
  it.each([
    ['Never push to main directly.', 'rule'],
    ['Always run the linter before you commit.', 'rule'],
    ['When you touch the migrations, run make check first.', 'rule'],
    ['If a test is flaky, mark it and open an issue instead of retrying it.', 'rule'],
    ['Before you open a pull request, update the changelog.', 'rule'],
    ['I prefer small commits with imperative subject lines.', 'rule'],
    // Said to stop from now on, not for the moment.
    ["Don't regenerate the client stubs by hand anymore, the CI job does it.", 'rule'],
    ['We no longer vendor the protobuf files.', 'rule'],
    // A noun before "of" heads a label, not a command; what the cache is "now" is how it is from now
    // on, a fact that replaces the older one, not the state of the work in hand.
    ['Change of plan on the cache: Redis is gone, it is in-process now.', 'fact'],
    ['Use pnpm.', 'rule'],
    ['The API runs on port 8080.', 'fact'],
    ['This service is a Go gRPC server.', 'fact'],
    ['Our marketing site is hosted on Netlify.', 'fact'],
    ["Let's go with Postgres for the job queue.", 'decision'],
    ['We decided to keep the monorepo.', 'decision'],
    ['run the tests again', 'one-off'],
    ['explain this function', 'one-off'],
    ['fix the login bug', 'one-off'],
    ['What does the retry wrapper do?', 'question'],
    // A task done once, even when it names something that lasts; made lasting by a habit or a condition on the work.
    ['Add a gitignore file.', 'one-off'],
    ['Help me apply for the grant by Superteam.', 'one-off'],
    ['Go through README.md and all the files in src.', 'one-off'],
    ['Run make check before you push.', 'rule'],
    ['Add a test for every new endpoint.', 'rule'],
    ['Commit often.', 'rule'],
    ['Write ROADMAP.md with the findings before touching any code.', 'rule'],
    // Going on with what is on the table, a story of the moment, a time phrase with nothing to stand on.
    ['Implement the plan.', 'chatter'],
    ['Perfect - I agree, Engage.', 'chatter'],
    ['I just got back from a walk and realized we drifted.', 'chatter'],
    ['At some point in the future.', 'chatter'],
    // How something went, told after it: nothing that lasts, unless a rule comes with it.
    ['Testing went fine.', 'chatter'],
    ['The deploy went well but always tag the release first.', 'rule'],
    // A thing set against another names the choice; a verdict on nothing named does not.
    ['tabs, not spaces.', 'fact'],
    ['duckdb, not sqlite.', 'fact'],
    ['ok, not bad.', 'chatter'],
    // A bound on the work is a rule; a bound the world has is how things are.
    ['Keep every handler under 50 lines.', 'rule'],
    ['Most buyers cannot invest because the minimum is 50,000 dollars.', 'fact'],
    // What the tagger took for a command's verb: a versioned name, a pronoun.
    ['go 1.22, grpc, protos managed with buf.', 'fact'],
    ['Everything goes through tracing.', 'fact'],
    // A modal inside what is asked about directs no one; "rather than" compares.
    ['None of the processes know what it should produce.', 'fact'],
    // A first word that heads a subject is no command; "do" before what is done is the verb.
    ["Build output doesn't include the fonts any more.", 'fact'],
    ['Test coverage is low on the parser.', 'fact'],
    ['Do some research on how other editors store their undo history.', 'one-off'],
    ['Close enough.', 'one-off'],
    ['Indent with two spaces.', 'rule'],
    // Asking what is needed, saying one does not know, trying something out once, going on after an aside.
    ['The worker crashed twice, do we need to raise its memory limit?', 'question'],
    ["I'm not sure what the legacy exporter is for.", 'chatter'],
    ["hmm, I don't really have any off the top of my head right now", 'chatter'],
    ["Let's see if the staging build passes with the new flag.", 'one-off'],
    ["Let's check the nginx logs first.", 'one-off'],
    ['My mistake ... proceed.', 'chatter'],
    // Praise set off before a rule does not hide it; a bare "no" forbids; "my preference" is one.
    ['Great, squash and rebase before each merge.', 'rule'],
    ['please no emojis in commit messages', 'rule'],
    ['My preference is that you write the tests first.', 'rule'],
    // An agent's report format pasted, an announcement of what follows, what the person sees happen.
    ['✅ **COMPLETED**: Check that the scanner is attached', 'pasted'],
    ['**Solution**: restart the capture daemon', 'pasted'],
    ['💭 Summary: the post announces a new design tool with a canvas and voice commands.', 'pasted'],
    ['🚫 Důvod: účet bez followerů a neověřený.', 'pasted'],
    ["Here's what I would like the dashboard to do.", 'chatter'],
    // It leads into what the person pasted or listed after it, or announces news it does not give.
    ['getting this on the staging cluster:', 'chatter'],
    ['heads up we changed the flow.', 'chatter'],
    ['Heads up, the deploy flow changed: Argo syncs prod from the release branch now.', 'fact'],
    ['The harbour API now lives at api.harbour.example/v2, not /v1.', 'fact'],
    // "Now" in a story, a case, or with the moment's own words stays the state of things.
    ['ok good now when I deposit it says the treasury is not initialized', 'state'],
    ['The build is green again now.', 'state'],
    ['For now the staging deploy runs by hand.', 'state'],
    ["The dev server doesn't seem to start.", 'state'],
    // What the person saw the program do is a report of the moment; how it is built is a fact or a rule.
    ['The pet owner tile is showing black.', 'state'],
    ['It just shows a dark blue screen when the video is off.', 'state'],
    ['The "Saving draft" message never showed.', 'state'],
    ['The header shows the signed-in user.', 'fact'],
    ['The export never shows raw database IDs.', 'rule'],
    // "each" that only counts a task's objects makes no habit; "for every" does.
    ['Go through the fixtures and map each output to the function that makes it.', 'one-off'],
    ['Wire the React frontend to the deployed API.', 'one-off'],
    // Going on to a plan's next step is for the moment, whatever the step is called.
    ['continue to Phase 3: Controller Logic & Routing', 'one-off'],
    ['ok, proceed with the next step.', 'one-off'],
    ['ready for phase 5', 'one-off'],
    ['Always start each phase with a failing test.', 'rule'],
    // "while" only places a task; a question is not a prohibition for opening with "no".
    ['Help me write a short pitch while showing the bigger vision.', 'one-off'],
    ['No to ještě potřebuju dostat na server, ne??', 'question'],
    // A judgement alone is chatter; a rule after it is still a rule.
    ['That looks great, but always run the linter first.', 'rule'],
    // Work said to be open is the state the person put it in.
    ['Picking up the pending bit: retry logic for the part uploads.', 'state'],
    ['Last one from the list: stripe webhook signature verification.', 'state'],
    ['Still left from last week: the PDF version of the VAT report.', 'state'],
    ['Three subtasks are done and pushed; the fourth is in progress.', 'state'],
    ['Never deploy while a migration is in progress.', 'rule'],
    // A wish bound to the day is the day's request; the same wish unbound stands.
    ['Today I want to generate thumbnails when a workshop photo is uploaded.', 'one-off'],
    // A task asked as a wish is asked as its command would be; what makes it last still does.
    ["I'd like you to add exponential backoff to the thumbnail uploader.", 'one-off'],
    ['I want to add a CSV export to the reports page.', 'one-off'],
    ["We'd love for you to rename the settings tab to Preferences.", 'one-off'],
    ["I'd like you to add a test for every new endpoint.", 'rule'],
    ["I'd like you to say how sure you are when you ask me.", 'rule'],
    ["I don't want to add another dependency for three slices of state.", 'rule'],
    ["Eventually I'd like to add tags to conversations so they are indexed.", 'rule'],
    ['Change the default port to 8080 in the compose file.', 'one-off'],
    ['Honestly I wish we had a dry-run flag for the importer, that would be great.', 'one-off'],
    ['I wish the report could export PDFs.', 'one-off'],
    ['Never change the public API without a deprecation notice.', 'rule'],
    // A report opened by a label naming the trouble: its "should" is what was expected to happen.
    ['More UI issues - the header says "Guest (You)", I am not a guest, it should show my name.', 'state'],
    ['Another bug: the sidebar overlaps the chat on narrow screens, it should scroll.', 'state'],
    ['Problem: the export is empty, it should have forty rows.', 'state'],
    // The same label before a command is a rule about that trouble.
    ['Bug reports: always attach the failing command.', 'rule'],
    ['Errors: always wrap them with context.', 'rule'],
    ['Errors: use thiserror in the libraries and anyhow in the binaries.', 'rule'],
    ['Warnings: treat them as errors in CI.', 'rule'],
    // A task asked under it is a request of the moment.
    ['Bug: fix the sidebar overlap on mobile.', 'one-off'],
    // A condition that "please" ends, with no comma, before its command.
    ['When you touch the billing module please run the contract tests before you push.', 'rule'],
    ['If the nightly build fails please open an issue with the log.', 'rule'],
    ['Test failures: rerun them once before you report them.', 'rule'],
    ["Aujourd'hui je veux générer des miniatures quand on uploade une photo.", 'one-off'],
    ['I want thumbnails generated whenever a workshop photo is uploaded.', 'rule'],
    // "For each X, do Y" holds in every case; "for each one" only counts the task's own objects.
    ['For each endpoint, add an integration test.', 'rule'],
    ['On each push, run the linter.', 'rule'],
    ['Review every file in src and for each one, note what it exports.', 'one-off'],
    // "Search for any …", "check for any …": the preposition is the verb's own, and counts no cases.
    ['Please search for any related projects online.', 'one-off'],
    ['Check for any leftover debug prints.', 'one-off'],
    ['Run the linter for every package.', 'rule'],
    ['Always search the docs before you ask me.', 'rule'],
    // "… or not", "does or doesn't": the alternative a question leaves open is no prohibition.
    ['Search for any related projects online please, i wonder if this whole thing is solved somewhere or not.', 'one-off'],
    ["Take a look at the old service and tell me how it does or doesn't relate.", 'one-off'],
    ['Do not add a cache here.', 'rule'],
    // Going on to a plan's step, named by its place in the plan, is this time's.
    ['Proceed to the final task: a top-level index of the solutions at the repo root.', 'one-off'],
    // A task named with "remaining" is still a task.
    ['Fix the remaining lint errors.', 'one-off'],
    // A stop that says neither where nor what holds for now; one that says where stands.
    ["Don't edit anything.", 'one-off'],
    ['Please do not touch anything.', 'one-off'],
    ["Don't edit anything in the generated folder.", 'rule'],
    ["Don't commit anything without asking me first.", 'rule'],
    // A command after the first clause, set off by "please", is still a command.
    ['The project direction changed a lot since then, please take a full new overview now.', 'one-off'],
    ['The build is broken, please fix it.', 'one-off'],
    ['The tests are flaky, please always rerun them twice.', 'rule'],
    // "It should not be this way" complains about what is seen; "should be like the settings page" asks.
    ["When the other participant's video is off it just shows a dark blue screen but it should not be this way.", 'state'],
    ['The modal should be like the settings page.', 'rule'],
    // A verb the tagger knows only without its "re-" is still a verb.
    ['If the cache is cold, re-run the warmup job.', 'rule'],
    ['When the inflation toggle is on, recompute everything in 2024 terms.', 'rule'],
    ['Rebase before merging.', 'rule'],
    ['Retries are capped at 5.', 'fact'],
    // A negation inside what a task goes on to say forbids nothing; one of a clause of its own does.
    ['Go through every field in the fixture and find a row pair that proves it is NOT a reliable key.', 'one-off'],
    ["Fix the lints, don't slap //nolint on them.", 'rule'],
    ["Make sure the README doesn't become bloated.", 'rule'],
    // One of the agent's skills is picked for the task in hand; a rule may still name one.
    ['Use the security-review skill on the auth module.', 'one-off'],
    ['Always use the review skill before merging.', 'rule'],
    // What has become possible lasts; "now" alone is the moment.
    ['Users can now export the report as CSV.', 'fact'],
    ['Now run the migration.', 'one-off'],
    // A condition met once in the task in hand makes its command this task's, not a rule.
    ['Before you go too deep, please look for other existing projects that do anything similar.', 'one-off'],
    ['Before you start, read the AI readme.', 'one-off'],
    ['When you start a new feature, create a branch first.', 'rule'],
  ])('"%s" is a %s', (text, kind) => {
    expect(kindOfText(text)).toBe(kind);
  });

  it.each([
    ['Keep committing after each thing we do.', 1],
    ['Save and commit after each interaction.', 1],
    ['Run make check before you push.', 1],
    ['Before every release, bump the version.', 1],
    ["I'd like you to say how confident you are whenever you ask me a question.", 1],
    ['I want you to say how sure you are when you ask me something.', 1],
    // Going on, a single condition met once, this time's order, a question: no habit.
    ['Keep working on the parser.', 0],
    ['Once every file is converted, delete the old folder.', 0],
    ["Finish all of them, and once you're done, we can review them together.", 0],
    ['Show the complete code for every file.', 0],
    ['Now run the migration before we move on to the views.', 0],
    ['Can you run the migration before moving to phase 4?', 0],
    // How far the task in hand has got is met once; an event of the work, with what it goes into, each time.
    ['Before you go too deep, please look for other existing projects that do anything similar.', 0],
    ['Before you dive in, check the open issues.', 0],
    ['When you start a new feature, create a branch first.', 1],
    ['When you go to production, bump the version.', 1],
  ])('"%s" is said to hold beyond the moment: %i', (text, standing) => {
    const r = ranked([text]).find((x) => x.candidate.text.startsWith(text.slice(0, 12)));
    expect(r?.features[FEATURES.indexOf('modal.standing')]).toBe(standing);
  });

  it.each([
    // What the speaker expects of a state or an outcome asks nothing of anyone.
    ['I removed the git repo from the parent folder, so now we should be clean.', 0],
    ['Now the tests should pass.', 0],
    ['That should fix it.', 0],
    // Still asked: what it should be like, a requirement on the code, from now on.
    ['So the modal should be like the settings page.', 1],
    ['This should work with the old API too.', 1],
    ['The build should be clean.', 1],
    ['From now on the API should be versioned.', 1],
    ['Now the API should be stateless.', 1],
    ['Cache the totals so that the page should be fast.', 1],
  ])('"%s" asks it (modal.deontic): %i', (text, deontic) => {
    const r = ranked([text]).find((x) => x.candidate.text.startsWith(text.slice(0, 12)));
    expect(r?.features[FEATURES.indexOf('modal.deontic')]).toBe(deontic);
  });

  it('a rule in Spanish, German, French, Japanese or Chinese with its standing marker is a rule, not chatter', () => {
    for (const text of [
      'Siempre escribe los mensajes de commit en inglés.',
      'Schreib die Commit-Nachrichten immer auf Englisch.',
      'Écris toujours les messages de commit en anglais.',
      '今後、コミットメッセージは必ず英語で書いてください。',
      '以后提交信息一律用英文写。',
      // Written as a house rule, with no "always": "do not hard-code it in components", "amounts are stored in cents without exception".
      'コンポーネントにハードコードしないこと。',
      '金额一律用分存储。',
    ])
      expect([kindOfText(text), text]).toEqual(['rule', text]);
  });

  it('in other languages, "again", "explain", "give me", a task by its verb and "go on with" ask for something of the moment and a short thanks is chatter, however the sentence was read', () => {
    for (const text of [
      'relance pytest stp',
      'lauf nochmal deno test',
      'corre los tests otra vez',
      'もう一回ビルドして',
      '再跑一次 smoke test',
      'explique-moi ce que fait le middleware de session',
      'erklär mir, was der Retry-Wrapper macht',
      'この関数が何をしているか説明して',
      'Udělej novou branch pro ScrapFly integraci.',
      'Dej mi aktuální log z deploye, ať ho můžu přenést na desktop.',
      'montre-moi la config nginx de la préprod',
      'gib mir die letzten zehn Zeilen vom Worker-Log',
      'muéstrame el esquema actual de la tabla de pedidos',
      '今のマイグレーションの一覧を見せて',
      // A task asked for now, by its verb, and going on with the work in hand.
      'Bau bitte einen CSV-Export der Zählerstände pro Monat.',
      "Ajoute un bouton d'export sur la page des factures.",
      'Crea un endpoint para exportar las facturas.',
      'Weiter mit der README.',
    ])
      expect([kindOfText(text), text]).toEqual(['one-off', text]);
    // A prohibition or a standing marker stands.
    for (const text of ['Erstelle keine neuen Tabellen ohne Migration.', 'Crea siempre la migración con sqlx migrate add.'])
      expect(kindOfText(text)).not.toBe('one-off');
    for (const text of ["merci, c'est nickel", '好的，谢谢～', '了解、いい感じです', 'danke, passt'])
      expect([kindOfText(text), text]).toEqual(['chatter', text]);
  });

  it('in other languages, work said to be left or picked up from an earlier session is the state of the work', () => {
    for (const text of [
      'On reprend : il reste la politique de retry pour les miniatures qui échouent.',
      'Retomo lo de la semana pasada: falta la paginación del listado por zona.',
      '继续上次的：先把 SHAP 汇总图做出来。',
      '前回の続きです。',
      'Es fehlt noch die Paginierung der Zonenliste.',
    ])
      expect([kindOfText(text), text]).toEqual(['state', text]);
    // "Let's do the CloudKit sync" takes up a task now; "let's go with TypeScript" is no task.
    expect(kindOfText('CloudKit同期をやりましょう。')).toBe('one-off');
    expect(kindOfText('TypeScriptにしましょう。')).not.toBe('one-off');
  });

  it("an answer that says the person does not know is no decision: it leaves the agent's question open", () => {
    const messages: ExtractMessage[] = [
      {
        id: 'a0',
        role: 'assistant',
        kind: 'text',
        text: 'Two questions before I write the deck:\n1. Who is the audience: judges, grant reviewers or investors?\n2. Which competitors should I position against?',
      },
      { id: 'm1', role: 'user', kind: 'text', origin: 'typed', text: "1. grant reviewers\n2. hmm, I don't really have any off the top of my head right now" },
    ];
    const answers = rank(collectCandidates(messages), sessionContext(messages)).filter((r) => r.candidate.source === 'answer');
    expect(answers.map((r) => [r.kind, r.candidate.text.split('→')[1]?.trim()])).toEqual([
      ['decision', 'grant reviewers'],
      ['chatter', "hmm, I don't really have any off the top of my head right now"],
    ]);
  });

  it("a bare yes to the agent's offer lets it go on; a yes or no to a question about the project decides it", () => {
    const kinds = (question: string, reply: string): string[] => {
      const messages: ExtractMessage[] = [
        { id: 'a0', role: 'assistant', kind: 'text', text: `Done with the importer. ${question}` },
        { id: 'm1', role: 'user', kind: 'text', origin: 'typed', text: reply },
      ];
      return rank(collectCandidates(messages), sessionContext(messages))
        .filter((r) => r.candidate.source === 'answer')
        .map((r) => r.kind);
    };
    expect(kinds('Want me to look at the latest workflow runs?', 'yes')).toEqual(['chatter']);
    expect(kinds('Chceš, abych se podíval na stav posledních workflow runů?', 'Ano.')).toEqual(['chatter']);
    expect(kinds('Should the CSV export include the archived customers?', 'yes')).toEqual(['decision']);
    // A suggestion of a next step is an offer too; a yes or no to a question that names nothing
    // agrees with or refuses what the answer does not carry.
    expect(kinds('Want to test it by restarting the session?', 'yes')).toEqual(['chatter']);
    expect(kinds('What do you think?', 'okay')).toEqual(['chatter']);
    expect(kinds('Chceš to?', 'Ne.')).toEqual(['chatter']);
    expect(kinds('Do you want the dark theme on by default?', 'no')).toEqual(['decision']);
    // A go-ahead said as a phrase accepts what the agent put forward, which it does not carry.
    expect(kinds("Are there particular commits you'd hate to lose easy access to?", 'Go for it')).toEqual(['chatter']);
    expect(kinds('Should I switch the importer to streaming?', 'ok, go ahead.')).toEqual(['chatter']);
    // Praise for what was put forward before the go-ahead says no more: the plan is the agent's.
    expect(kinds('Would you like me to proceed with this plan?', 'Nice, solid plan, go ahead.')).toEqual(['chatter']);
    expect(kinds('Shall I start on the migration?', 'Looks good, go ahead.')).not.toContain('decision');
    expect(kinds('Should I start on the migration?', 'Good plan, but keep the old migration script as a fallback.')).toEqual(['decision']);
    // A reply that only asks for a task of the moment chooses nothing; one that names its choice does.
    expect(kinds('Ready for the next UI tweaks - the sidebar dropdown and one-line room cards?', 'Remember your training.')).toEqual(['one-off']);
    expect(kinds('Want me to remove them too, or keep them in case the client comes back later?', 'remove them')).toEqual(['one-off']);
    expect(kinds('Should we keep refining this document or move on to the ingestor?', 'Great, commit, save')).toEqual(['one-off']);
    expect(kinds('Want me to proceed with rubocop next?', "proceed to a clean baseline, then I'll commit")).toEqual(['decision']);
    expect(kinds('Which database should we use for the event store?', 'Use Postgres, it is what the rest of the stack runs on.')).toEqual(['decision']);
    // A yes to an either-or question, or "check the code", decides nothing either.
    expect(kinds('Should it follow the Profile pattern, or does it need a new configuration approach?', 'Yes.')).toEqual(['chatter']);
    expect(kinds('Is the CLI assumed to be in PATH, or do we need a configurable path field?', 'Check code.')).toEqual(['chatter']);
    expect(kinds('Is the CLI assumed to be in PATH, or do we need a configurable path field?', 'A path field in the profile.')).toEqual(['decision']);
    // How to go on with a chore the agent offers (commit, push, merge) is for this time; a rule said
    // in the reply stands.
    expect(kinds('Should I commit these setup changes and then start on the event generation?', "Let's get cleaned up first, committed and pushed.")).toEqual([
      'one-off',
    ]);
    expect(kinds('Would you like me to merge the branch back and remove the worktree?', 'Yes, but check master again before you do.')).toEqual(['one-off']);
    expect(
      kinds('Ready to test the live data flow - want me to commit this change and start both services?', 'Commit and push! and then yes, kick the tires.'),
    ).toEqual(['one-off']);
    // A reply that says what holds beside the look it asks for decides.
    expect(
      kinds('Does the system spawn a new CLI process per request, or keep one running?', 'Take a look at the docs; one-shot process needs no API key.'),
    ).toEqual(['decision']);
    // In other languages the git verb is borrowed and inflected.
    expect(kinds('Mergneš to přes PR, nebo chceš, abych pushnul přímo na main?', 'Udělej merge ty.')).toEqual(['one-off']);
    expect(kinds('Soll ich die Änderungen pushen?', 'Ja, bitte.')).not.toEqual(['decision']);
    expect(kinds('Want me to push the fix?', 'Yes, and always rebase on main before you push.')).toEqual(['decision']);
    expect(kinds('Want me to switch the importer to streaming?', 'Yes, stream it in 1,000-row pages.')).toEqual(['decision']);
  });

  it("a compaction summary's restated request is the session's one-off when it is a task of the moment", () => {
    const text = [
      'This session is being continued from a previous conversation that ran out of context.',
      '',
      'Summary:',
      '1. Primary Request and Intent:',
      '   - Make the repository public',
      '   - Every resource must carry the tags owner and cost-center',
    ].join('\n');
    const messages: ExtractMessage[] = [{ id: 's0', role: 'user', kind: 'summary', origin: 'summary', text }];
    const kinds = rank(collectCandidates(messages), sessionContext(messages)).map((r) => `${r.kind}: ${r.candidate.text}`);
    expect(kinds).toContain('one-off: Make the repository public');
    expect(kinds).toContain('fact: Every resource must carry the tags owner and cost-center');
  });

  it('a line of an instruction file the agent wrote is a rule, unless it only notes a value under a label', () => {
    const kindsOf = (lines: readonly string[]): string[] => {
      const messages: ExtractMessage[] = [{ id: 'w0', role: 'assistant', kind: 'text', origin: 'instructions', text: lines.join('\n') }];
      return rank(collectCandidates(messages), sessionContext(messages))
        .map((r) => `${r.kind}: ${r.candidate.text}`)
        .sort();
    };
    expect(
      kindsOf([
        'USB detection: shows as "PTZ Pro Camera" (vendor ID 0x046d) in system_profiler.',
        'Tests: run make check before every push.',
        'Package manager: pnpm, never npm.',
      ]),
    ).toEqual([
      'fact: USB detection: shows as "PTZ Pro Camera" (vendor ID 0x046d) in system_profiler.',
      'rule: Package manager: pnpm, never npm.',
      'rule: Tests: run make check before every push.',
    ]);
  });

  it('a polite "if" before "please" sets no condition: the request is no rule', () => {
    for (const text of ['If you could please take a look at the logs.', 'If you have a minute please update the readme.'])
      expect(kindOfText(text), text).not.toBe('rule');
  });

  it('acknowledgements and praise are no statement at all', () => {
    expect(ranked(['thanks, that looks great!', 'ok', 'perfect, go on']).filter((r) => r.kind !== 'chatter')).toEqual([]);
  });
});

describe('length is not evidence', () => {
  const filler = [
    'I spent the morning going through the onboarding notes and the old wiki pages, and most of it is out of date by now.',
    'The dashboards were moved twice last year and nobody updated the links, so half of them point at nothing.',
    'Anyway, the team is small and we mostly talk in the chat, so none of that matters much for what you do here.',
  ].join(' ');

  it.each(['The API runs on port 8080.', 'Never push to main directly.', 'When you touch the migrations, run make check first.', 'Use pnpm.'])(
    '"%s" gets the same kind and nearly the same score alone and inside a long message',
    (statement) => {
      const alone = ranked([statement]).find((r) => r.candidate.text === statement);
      const wrapped = ranked([`${filler} ${statement} ${filler}`]).find((r) => r.candidate.text === statement);
      expect(alone).toBeDefined();
      expect(wrapped).toBeDefined();
      expect(wrapped?.kind).toBe(alone?.kind);
      expect(Math.abs((wrapped?.score ?? 0) - (alone?.score ?? 0))).toBeLessThan(0.05);
    },
  );

  it('no feature grows with the number of words: a six-word fact and the same fact said in sixty words differ only in what they say', () => {
    const lengthy = FEATURES.filter((f) => /^size\.(?!tiny|contentShare)/.test(f));
    expect(lengthy).toEqual([]);
  });
});
