#!/usr/bin/env bash
# package-check.sh: the .deb installed for real (apt-get/dpkg, as root), then every kind of consumer built against the system's hinesbatch and run, and the installed `hinesbatch` program; the package removed again.
# Usage: bash ci/package-check.sh   (after ci/setup.sh built BUILD_DIR, default build/; ci/test.sh)
# It changes the system, so it runs only where CI=true or HB_PACKAGE_INSTALL=1 (else it
# says so and exits 0); as root, or through sudo. The CTest test `package` does the
# same checks on the unpacked .deb without installing it (examples/consumer/check_install.sh).
# Needs dpkg-dev (dpkg-shlibdeps) and file for the .deb's Depends, pkg-config, a C++
# compiler (build-essential), apt-get or dpkg.
set -euo pipefail
# shellcheck source=ci/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
hb_no_args "$@"

if [ "${CI:-}" != true ] && [ "${HB_PACKAGE_INSTALL:-}" != 1 ]; then
    say "skipped: it installs the package into this system (CI=true or HB_PACKAGE_INSTALL=1 runs it)"
    exit 0
fi
[ -f "$HB_BUILD/CPackConfig.cmake" ] || die "no build in $HB_BUILD (bash ci/setup.sh makes it)"
sudo=""
if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null 2>&1 || die "need root (or sudo) to install the package"
    sudo="sudo"
fi
# shellcheck source=ci/opencl-env.sh
. "$HB_ROOT/ci/opencl-env.sh" "$HB_BUILD"

work=$HB_BUILD/package-check
rm -rf "$work"
mkdir -p "$work"
say "cpack in $work/out"
cpack --config "$HB_BUILD/CPackConfig.cmake" -B "$work/out" >"$work/cpack.log" 2>&1 ||
    { cat "$work/cpack.log"; die "cpack failed"; }
deb=$(find "$work/out" -maxdepth 1 -name 'hinesbatch_*.deb' | head -n1)
[ -n "$deb" ] || die "cpack made no .deb ($work/cpack.log)"
version=$(dpkg-deb -f "$deb" Version)
say "$(basename "$deb"): Depends: $(dpkg-deb -f "$deb" Depends)"

# Installed until the end of this script, then removed (unless a hinesbatch
# package was there before: then this build's stays, replacing it).
had=0
if dpkg-query -W -f='${Status}' hinesbatch 2>/dev/null | grep -q "install ok installed"; then
    had=1
    say "a hinesbatch package is installed already: this build's replaces it and stays"
fi
cleanup() {
    if [ "$had" -eq 0 ]; then
        $sudo dpkg --purge hinesbatch >/dev/null 2>&1 || true
    fi
}
trap cleanup EXIT
export DEBIAN_FRONTEND=noninteractive
if command -v apt-get >/dev/null 2>&1; then
    # apt-get installs what Depends names when it is missing; dpkg -i would refuse.
    $sudo apt-get install -y -q --no-install-recommends "$deb"
else
    $sudo dpkg -i "$deb"
fi

# The system's copy, found through the default search paths alone.
for f in /usr/include/hinesbatch.h /usr/include/hinesbatch_version.h /usr/lib/libhinesbatch.a \
    /usr/lib/cmake/hinesbatch/hinesbatchConfig.cmake /usr/lib/pkgconfig/hinesbatch.pc; do
    [ -e "$f" ] || die "the package installed no $f"
done
got=$(hinesbatch --version)
[ "$got" = "hinesbatch $version" ] || die "hinesbatch --version says '$got', the package is $version"
say "$got at $(command -v hinesbatch); devices:"
hinesbatch devices
[ "$(pkg-config --modversion hinesbatch)" = "$version" ] || die "pkg-config does not find $version"
# The installed program's shipped neuron and plot script (/usr/share/hinesbatch),
# from a directory that is not the source tree.
(cd "$work" && HINESBATCH_BACKEND=serial hinesbatch simulate --cells 3 --tstop 10 \
    --plot "$work/installed.png") || die "the installed hinesbatch simulate --plot failed"
check=$HB_ROOT/examples/consumer/check_install.sh
bash "$check" against system "$work/consumers"
# Every consumer on each host backend this build has (OpenCL on PoCL).
for backend in serial openmp opencl; do
    if hinesbatch devices | grep -q "^$backend .*\(unavailable\|not compiled\)"; then
        say "$backend: not available here, not run"
        continue
    fi
    HINESBATCH_BACKEND=$backend OMP_WAIT_POLICY=passive bash "$check" run "$work/consumers"
done
say "OK: $(basename "$deb") installed, consumers built against it and run, CLI runs and plots"
