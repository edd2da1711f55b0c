/**
 * The hook entry's first client (hook-entry.ts): a perl program that speaks HTTP over the daemon's
 * unix socket with perl's built-in calls only. perl starts in ~2 ms against curl's ~7–15 ms (33
 * shared libraries); loading any module (Socket, IO::Socket::UNIX, even strict) costs 15–20 ms, so
 * it loads none and writes Linux's constants and sockaddr_un by hand, which is why the entry uses
 * it only when written on Linux. It runs as `perl -C0 -e '<program>' SOCK HOOK T CWD`: a fixed text
 * in single quotes (so it holds no single quote), every variable an argument, nothing evaluated.
 *
 * What it does, and the exit codes the entry reads:
 * - no socket to be had (socket() fails): 2, stdin untouched, the entry goes on to curl;
 * - connect fails (nothing listens): 7, stdin untouched, as curl's 7, so the Node hook gets it whole;
 * - otherwise it reads stdin whole (the request needs its length), sends one HTTP/1.0 POST (Node
 *   then answers unchunked and closes), reads the answer to its end, and prints the body and a
 *   newline for a 2xx answer that is not empty. Trailing newlines are dropped first, as the shell's
 *   `$(curl …)` does, so both clients print the same bytes.
 * - The whole exchange keeps to T ms with select()'s fractional timeouts (its time left carried
 *   from wait to wait); send() is MSG_DONTWAIT (0x40) | MSG_NOSIGNAL (0x4000), so it never blocks
 *   and a closed connection is an error, not SIGPIPE. alarm() at the next whole second after T is
 *   only the backstop for connect(). A timeout, an error answer or a cut one exits 3: nothing.
 * - The working directory (the entry leaves out one named with a control character) goes in
 *   `x-nightshift-cwd` as its bytes, as curl sends it; an empty one is not sent.
 */
export const PERL_CLIENT = String.raw`($sock, $hook, $t, $cwd) = @ARGV;
alarm(int($t / 1000) + 1);
socket(S, 1, 1, 0) or exit 2;
connect(S, pack("S a108", 1, $sock)) or exit 7;
$left = $t / 1000;
sub ready { my ($r, $w) = @_; my $n; ($n, $left) = select($r, $w, undef, $left); exit 3 if $n < 1 }
sub slurp {
  my ($fh, $bits, $size) = @_;
  my ($all, $k) = ("");
  for (;;) {
    ready($bits, undef);
    $k = sysread($fh, $all, $size, length $all);
    exit 3 unless defined $k;
    return $all unless $k;
  }
}
binmode STDIN;
binmode STDOUT;
vec($in0, 0, 1) = 1;
$in = slurp(\*STDIN, $in0, 1 << 20);
$out = "POST /v1/hook/$hook?timeout=$t HTTP/1.0\r\nHost: nightshift\r\nContent-Length: " . length($in) . "\r\n"
  . (length($cwd) ? "x-nightshift-cwd: $cwd\r\n" : "") . "\r\n" . $in;
vec($s0, fileno(S), 1) = 1;
for ($off = 0; $off < length $out; ) {
  ready(undef, $s0);
  $k = send(S, substr($out, $off, 1 << 18), 0x4040);
  if (defined $k) { $off += $k } elsif ($! != 11) { exit 3 }
}
$ans = slurp(\*S, $s0, 1 << 16);
close S;
$i = index($ans, "\r\n\r\n");
exit 3 if $i < 0;
$head = substr($ans, 0, $i);
$body = substr($ans, $i + 4);
exit 3 unless $head =~ m{\AHTTP/1\.[01] 2\d\d\b};
if ($head =~ /^transfer-encoding:[ \t]*chunked/mi) {
  $whole = "";
  $end = 0;
  while ($body =~ s/\A([0-9a-fA-F]+)[^\r\n]*\r\n//) {
    $n = hex $1;
    if (!$n) { $end = 1; last }
    exit 3 if length($body) < $n + 2;
    $whole .= substr($body, 0, $n);
    substr($body, 0, $n + 2) = "";
  }
  exit 3 unless $end;
  $body = $whole;
} elsif ($head =~ /^content-length:[ \t]*(\d+)/mi) {
  exit 3 if length($body) < $1;
  $body = substr($body, 0, $1);
}
$body =~ s/\n+\z//;
print $body, "\n" if length $body;
exit 0;
`;
