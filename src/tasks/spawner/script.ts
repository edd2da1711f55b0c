/**
 * The spawner: one long-lived POSIX shell that the daemon starts (and restarts), so the daemon's
 * ~100 MB Node process never forks a task. It reads one task directory per line on stdin and forks
 * a wrapper for it: a subshell of itself (a fork of a ~1 MB dash, no exec), which
 *
 * - sources `start` (written by the daemon, 0600: the output cap, stdin mode, cwd, the environment
 *   as an `e` function, and the argv, setsid first);
 * - claims the task by creating `wrapper` with noclobber: its pid, start time, boot id and output
 *   cap, what a rebuild needs to find the task's processes again (the daemon writes no run file of
 *   its own: one inode less per task). A start sent twice (the spawner died and the daemon sent it
 *   again), or a task a restarted daemon already declared lost (it creates the file itself), is
 *   never started a second time: the wrapper says `d` and leaves (at once when the file is there
 *   already: the first wrapper may have had its start request removed). A claim it could not write
 *   (a full disk leaves the file empty) is a failed start, `e claim`, never a duplicate: no other
 *   wrapper holds the task, and a duplicate would leave it waiting for a report that never comes;
 * - opens output.log for append (one fd for stdout and stderr, as before), makes the stdin FIFO when
 *   asked (keeping a writer open so the task never sees EOF between two `send`s; SIGUSR1 closes it:
 *   `send --eof`), forks the command in its own session with RLIMIT_FSIZE as the output cap;
 * - writes child.pid and reports `s <wrapper pid> <start ticks> <command pid> <dir>` on fd 3, the
 *   spawner's stdout, which every wrapper shares (a line is one write under PIPE_BUF: lines never
 *   interleave), waits, writes `exit` in place with one echo, and reports `x <status> <dir>`.
 *
 * The command's environment is exported inside its own subshell, after cd, ulimit and umask, so a
 * task variable can never change the wrapper's. An environment with names a shell cannot export
 * goes through `env -i` instead (the daemon decides). SIGPIPE is ignored only once the command is
 * forked, so the command keeps the default; a daemon gone meanwhile cannot kill the wrapper. The
 * spawner exits at EOF on stdin (the daemon is gone); wrappers it forked keep running and a
 * restarted daemon adopts them from their files, as it did when the daemon forked them itself.
 *
 * Arguments: $1 setsid, $2 mkfifo (absolute paths: a task's PATH cannot break the wrapper).
 */
export const SPAWNER_SCRIPT = `S=$1 M=$2
u=$(umask)
w() {
  umask 077
  [ -e "$1/wrapper" ] && { echo "d $1" >&3; exit 0; }
  [ -r "$1/start" ] && . "$1/start" || { echo "e start $1" >&3; exit 0; }
  d=$1 cap=$2 mode=$3 cwd=$4; shift 4
  read -r wp _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ ws _ </proc/self/stat
  read -r boot </proc/sys/kernel/random/boot_id
  set -C
  if ! { echo "$wp $ws $boot $cap" >"$d/wrapper"; } 2>/dev/null; then
    [ -s "$d/wrapper" ] && { echo "d $d" >&3; exit 0; }
    echo "e claim $d" >&3; exit 0
  fi
  set +C
  true >>"$d/output.log" || { echo "e output $d" >&3; exit 0; }
  exec >>"$d/output.log" 2>&1
  t=0
  trap 't=1; exec 4>&-' USR1
  if [ "$mode" = fifo ]; then
    LC_ALL=C "$M" -m 600 "$d/stdin" || { echo "e fifo $d" >&3; exit 0; }
    exec 4<>"$d/stdin" 5<"$d/stdin"
    [ "$t" = 1 ] && exec 4>&-
    (cd "$cwd" && ulimit -f "$cap" && umask "$u" && e && exec "$@" <&5 3>&- 4>&- 5<&-) &
    exec 5<&-
  else
    (cd "$cwd" && ulimit -f "$cap" && umask "$u" && e && exec "$@" </dev/null 3>&-) &
  fi
  pid=$!
  trap '' PIPE
  echo "$pid" >"$d/child.pid"
  echo "s $wp $ws $pid $d" >&3
  exec >/dev/null 2>&1
  while :; do
    wait "$pid"; s=$?
    if [ "$t" = 1 ] && [ "$s" = 138 ]; then t=2; continue; fi
    break
  done
  echo "$s" >"$d/exit"
  echo "x $s $d" >&3
  exit "$s"
}
exec 3>&1 1>/dev/null
while IFS= read -r line; do
  w "$line" &
done
`;
