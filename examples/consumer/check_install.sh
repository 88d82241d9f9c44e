#!/usr/bin/env bash
# check_install.sh: installs a build tree into a temporary prefix, builds this consumer against it
# with find_package and with pkg-config, and runs both. Usage: check_install.sh BUILD SOURCE WORK [CC]
set -euo pipefail
build=$1 src=$2 work=$3 cc=${4:-cc}
rm -rf "$work"
mkdir -p "$work"
prefix=$work/prefix
cmake --install "$build" --prefix "$prefix" > "$work/install.log"
test -f "$prefix/include/hinesbatch.h" || { echo "hinesbatch.h not installed"; exit 1; }

echo "== find_package(hinesbatch) =="
cmake -S "$src/examples/consumer" -B "$work/build" -DCMAKE_PREFIX_PATH="$prefix" \
      -DCMAKE_BUILD_TYPE=Release > "$work/configure.log"
cmake --build "$work/build" > "$work/build.log"
status=0
"$work/build/app" || status=$?
[ "$status" -eq 0 ] || exit "$status"

echo "== pkg-config hinesbatch =="
pcdir=$(dirname "$(find "$prefix" -name hinesbatch.pc | head -n1)")
flags=$(PKG_CONFIG_PATH=$pcdir pkg-config --cflags --libs hinesbatch)
libdir=$(PKG_CONFIG_PATH=$pcdir pkg-config --variable=libdir hinesbatch)
echo "pkg-config: $flags"
# The installed shared library, found through the pkg-config flags alone.
"$cc" -std=c11 -Wall -Wextra -o "$work/app-pc" "$src/examples/consumer/main.c" $flags \
      -Wl,-rpath,"$libdir"
"$work/app-pc"
