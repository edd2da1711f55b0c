import { collectCandidates } from './src/memory/candidates/index.js';
import { rank } from './src/memory/rank/score.js';
import { sessionContext } from './src/memory/rank/session-context.js';
import { keepPolicy } from './src/memory/rank/score.js';
const sets = [['The blog is built with Astro.', 'We deploy with npm run deploy.', 'Use British spelling in posts.', 'Indent with two spaces.','thanks!'],
['The API is written in Go.', 'Postgres 16 is the database.', 'Never log request bodies.', 'Commit messages follow Conventional Commits.','thanks!'],
['When you touch the migrations, run make check first.','If a test is flaky, mark it as skipped and open an issue instead of retrying it.','Before you open a pull request, update the changelog.','thanks!']];
console.log(keepPolicy());
for (const set of sets) { const m = set.map((t,i)=>({id:`m${i}`,role:'user',kind:'text',origin:'typed',text:t})) as never;
for (const x of rank(collectCandidates(m), sessionContext(m))) console.log(x.score.toFixed(3), x.wanted.toFixed(3), x.junk.toFixed(3), x.kind, '|', x.candidate.text); console.log('--'); }
