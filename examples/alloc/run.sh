#!/usr/bin/env bash
# The main job in one command: weave the allocation tracker (examples/alloc)
# into the whole JDK and a small program, run it, and show what it found.
#
#   bash examples/alloc/run.sh [ARGS FOR THE DEMO...]
#
# Installs a JDK 17 if javac is missing (Debian/Ubuntu, as root), builds weft
# and the Java pieces from source into $WORK (default /tmp/weft-demo), and
# caches the woven JDK in $WEFT_CACHE (default ~/.cache/weft): the first run
# weaves every module (a few seconds to a minute), later runs start at once.
set -euo pipefail
cd "$(dirname "$0")/../.."
if ! command -v javac >/dev/null 2>&1; then
  echo "run.sh: installing openjdk-17-jdk-headless" >&2
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq openjdk-17-jdk-headless >&2
fi
WORK=${WORK:-/tmp/weft-demo}
mkdir -p "$WORK"
go build -o "$WORK/weft" ./cmd/weft
"$WORK/weft" runtime -o "$WORK/weft-rt.jar"
javac -cp "$WORK/weft-rt.jar" -d "$WORK/advice" examples/alloc/alloc/Tracker.java
javac -d "$WORK/demo" examples/alloc/demo/WordFreq.java
[ $# -gt 0 ] || set -- examples/alloc/demo/WordFreq.java
exec "$WORK/weft" run -a examples/alloc/alloc.weft --advice-cp "$WORK/advice" -- \
  java -cp "$WORK/demo" WordFreq "$@"
