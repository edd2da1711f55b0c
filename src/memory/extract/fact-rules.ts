/**
 * The last and weakest rules: statements about the project (facts, procedures, conventions). They
 * need no standing marker, so their guard asks them to name something concrete instead.
 */
import type { RuleSpec } from './rule-spec.js';

export const FACT_RULES: readonly RuleSpec[] = [
  {
    name: 'procedure',
    pattern: /^(?:to|for)\s+[a-z][^,:]{2,60}[,:]\s*(?:first\s+|just\s+|you\s+)?(?:run|use|do|execute|call|type|invoke|start|open|bump|tag|build|push|merge|go to|set|edit|update|create|add|need to|have to|must)\b|\bthe\s+(?:steps|process|procedure|workflow|recipe|checklist)\s+(?:(?:to|for)\s+[^,]+?\s+)?(?:is|are)\b|^(?:to|for)\s+[a-z][^,:]{2,60}:\s+\S+.*;/,
    type: 'procedure', importance: 0.65, guard: 'fact', project: true,
  },
  {
    name: 'we-use',
    pattern: /^(?:we|the team|this (?:repo|project|codebase)|the (?:repo|project|codebase))\s+(?:(?:only|mostly|mainly|all)\s+)?(?:use|uses|rely on|relies on|build with|builds with|test with|tests with|lint with|format with|deploy with|host on|standardi[sz]ed on|are on|is on)\b/,
    type: 'fact', importance: 0.7, guard: 'gentle', project: true,
  },
  {
    name: 'status',
    pattern: /^(?:the\s+)?(?:[\w-]+\s+){0,2}(?:staging|prod|production|ci|vpn|database|db|api|cluster|registry|pipeline|server|service|environment|env|deploys?|deployments?|backend|frontend|queue|cache|cdn|dns)\s+(?:is|are)\s+(?:currently\s+|temporarily\s+|still\s+|now\s+)?(?:down|flaky|offline|unavailable|unreachable|disabled|frozen|locked|paused|read-only|degraded|under maintenance|out of service)\b/,
    type: 'fact', importance: 0.3, guard: 'gentle', project: true, transient: true,
  },
  {
    name: 'fact',
    pattern: /\bon port\s+\d{2,5}\b|\bport\s+\d{2,5}\s+(?:is|for)\b|\b(?:listens|binds)\s+(?:on|to)\b|\b(?:is|are|gets|get)\s+(?:run|built|deployed|started|managed|hosted|configured|stored|generated|defined|tested|served|released|published|formatted|linted|bundled|compiled|installed|kept|located|written|handled|launched|triggered|scheduled|cached|versioned|documented|pinned|set|declared|checked|loaded|read|injected|mounted|provisioned|seeded|rotated|synced|mirrored|proxied|routed|tracked|monitored|backed up)\s+(?:\w+\s+)?(?:with|by|on|in|via|using|to|at|from|under|through|inside)\b|\b(?:lives?|sits?|resides?|can be found|is found|are found)\s+(?:in|at|under|inside)\b|^(?:we|they|the team)\s+(?:deploy|host|ship|release|publish)\b|\bdeploys?\s+(?:go|goes)\s+to\b|\b(?:default|main|base|release|production)\s+branch\s+is\b|\bthe command (?:to|for)\b.+\bis\b/,
    type: 'fact', importance: 0.65, guard: 'fact', project: true,
  },
  {
    name: 'subject-is',
    pattern: /^(?:the|our)\s+[\w.@/`-]+(?:\s+[\w.@/`-]+){0,3}\s+(?:is|are|uses|use|runs|run|requires|require|needs|depends on|talks to|connects to|points to|is backed by|is written in|targets|expects)\s+\S/,
    type: 'fact', importance: 0.65, guard: 'fact', project: true,
    // "The API is returning 500s" describes the moment, not the project.
    unless: /\s(?:is|are)\s+(?:not\s+|still\s+|now\s+|just\s+)?(?:\w+ing|slow|broken|failing|down|wrong|missing|empty|null|undefined|weird|off|fine|ok|okay|good|bad|better|worse|done)\b/,
  },
];
