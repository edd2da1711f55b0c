/**
 * The hook entry `integrate` installs: a POSIX shell script the agents' hooks run instead of Node.
 * A hook that starts Node pays Node's start-up on every prompt; this one hands stdin to the
 * daemon's hook route (daemon/routes/hook.ts) and prints the answer, through the first client it
 * finds: perl with built-in socket calls (perl-client.ts; written in only on Linux, whose
 * sockaddr_un it packs), then `curl --unix-socket`, then the Node hook. Stdin goes from the agent to
 * the client untouched: the shell never reads, expands or evaluates it. With a socket nobody listens
 * on it runs the Node hook (which starts the daemon at a session start, and spools a session end);
 * on a prompt it then prints nothing, as the Node hook would, without starting Node. It always exits
 * 0. Written with this node and this nightshift baked in (as the hook commands were), so `integrate`
 * writes it again after either moves.
 */
import { HOOK_ENTRY_NAME, shellQuote, type Invocation } from './command.js';
import { PERL_CLIENT } from './perl-client.js';

/**
 * perl's exit codes (perl-client.ts): 7, nothing listens (stdin not read yet); 2, no socket to be
 * had, so curl is tried; any other (a timeout, an error answer, a signal) printed nothing.
 * `PERL5OPT=` and `-C0`: the environment must not load modules or turn on Unicode layers.
 */
function perlClient(): string {
  return `if command -v perl >/dev/null 2>&1; then
  [ -S "$sock" ] || no_daemon
  PERL5OPT= perl -C0 -e '${PERL_CLIENT}' "$sock" "$hook" "$t" "$cwd"
  case $? in
  7) no_daemon ;;
  2) ;;
  *) exit 0 ;;
  esac
fi
`;
}

/**
 * curl's exit codes: 7, nothing listens (stdin is not read yet, `-T -` reads it as it sends); 2,
 * a curl without --unix-socket. Any other failure (a timeout, an error answer) prints nothing.
 * `-q` first: a ~/.curlrc must not change what is sent or printed.
 * The socket's path is paths.ts's, from the same variables.
 */
export function hookEntryScript(inv: Invocation, platform: NodeJS.Platform = process.platform): string {
  return `#!/bin/sh
# nightshift's hook entry, written by \`nightshift integrate\`; run that again after moving node or
# nightshift. Usage: ${HOOK_ENTRY_NAME} session-start|session-end|pre-compact|user-prompt-submit,
# with the hook's JSON on stdin, which goes to the daemon untouched. Always exits 0.
NODE=${shellQuote(inv.node)}
CLI=${shellQuote(inv.cli)}
hook=$1
[ -n "\${NIGHTSHIFT_MODEL_CALL-}" ] && exit 0
case $hook in
session-start | session-end | pre-compact) t=\${NIGHTSHIFT_HOOK_TIMEOUT_MS-} d=1500 ;;
user-prompt-submit) t=\${NIGHTSHIFT_PROMPT_HOOK_TIMEOUT_MS-} d=150 ;;
*) exit 0 ;;
esac
case $t in '' | *[!0-9]* | 0 | ????????*) t=$d ;; esac

node_hook() {
  "$NODE" "$CLI" hook "$hook"
  exit 0
}
no_daemon() {
  [ "$hook" = user-prompt-submit ] || node_hook
  cat >/dev/null 2>&1
  exit 0
}

if [ -n "\${NIGHTSHIFT_HOME-}" ]; then
  sock=$NIGHTSHIFT_HOME/run/nightshift.sock
elif [ -n "\${XDG_RUNTIME_DIR-}" ]; then
  sock=$XDG_RUNTIME_DIR/nightshift/nightshift.sock
else
  sock=\${XDG_STATE_HOME:-\${HOME-}/.local/state}/nightshift/run/nightshift.sock
fi
# The working directory goes in a header: one named with a control character would split the
# request (CR LF) or have the daemon refuse it, so it is left out and the input's cwd is read.
cwd=$PWD
case $cwd in *[[:cntrl:]]*) cwd= ;; esac
${platform === 'linux' ? perlClient() : ''}command -v curl >/dev/null 2>&1 || node_hook
[ -S "$sock" ] || no_daemon
ms=$((t % 1000))
case $ms in ?) ms=00$ms ;; ??) ms=0$ms ;; esac
out=$(LC_ALL=C curl -q -sf --unix-socket "$sock" --max-time "$((t / 1000)).$ms" -X POST -H 'Expect:' \\
  -H "x-nightshift-cwd: $cwd" -T - "http://nightshift/v1/hook/$hook?timeout=$t")
case $? in
0) [ -n "$out" ] && printf '%s\\n' "$out" ;;
7) no_daemon ;;
2) node_hook ;;
esac
exit 0
`;
}
