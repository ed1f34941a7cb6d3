#!/bin/sh
# expect.sh RC PATTERN COMMAND...: runs COMMAND; passes when it exits with RC and, for a
# non-empty PATTERN, its stderr is exactly one line matching PATTERN (grep -E).
rc_expected=$1 pattern=$2
shift 2
err=$(mktemp)
"$@" >/dev/null 2>"$err"
rc=$?
lines=$(wc -l <"$err")
echo "exit $rc (expected $rc_expected); stderr:"
cat "$err"
ok=1
[ "$rc" -eq "$rc_expected" ] || ok=0
if [ -n "$pattern" ]; then
  [ "$lines" -eq 1 ] || ok=0
  grep -Eq "$pattern" "$err" || ok=0
fi
rm -f "$err"
[ $ok -eq 1 ]
