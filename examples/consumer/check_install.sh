#!/usr/bin/env bash
# check_install.sh: builds every kind of consumer (C and C++-only projects; shared and static; find_package, pkg-config and pkg-config --static) against an installed hinesbatch, and runs them.
# Usage (tests/CMakeLists.txt and ci/package-check.sh call it):
#   check_install.sh install BUILD WORK    cmake --install BUILD into WORK/prefix, then `against` it
#   check_install.sh against PREFIX WORK   the consumers against PREFIX ("system": the compiler's,
#                                          CMake's and pkg-config's own search paths) into WORK/bin
#   check_install.sh run WORK              runs each consumer in WORK/bin (backend: HINESBATCH_BACKEND);
#                                          77 when every one skipped (no device, HB_TEST_ALLOW_SKIP=1)
#   check_install.sh package BUILD WORK    cpack BUILD's .deb and .tar.gz into WORK, checks them,
#                                          unpacks the .deb (dpkg-deb -x: nothing is installed) and runs
#                                          `against` and `run` on it, and its hinesbatch program
# CC and CXX choose the compilers (default cc and c++); HB_PACKAGE_CLI=0: the build has no
# hinesbatch program (HINESBATCH_BUILD_APPS=OFF). Logs: WORK/*.log, shown on failure.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cc=${CC:-cc} cxx=${CXX:-c++}

fail() {
    echo "check_install: FAILED: $*" >&2
    exit 1
}

# step LOG COMMAND...: runs COMMAND with its output in LOG; on failure shows the log and fails.
step() {
    local log=$1
    shift
    if ! "$@" >"$log" 2>&1; then
        cat "$log" >&2
        fail "$* (log: $log)"
    fi
}

# needs BINARY yes|no: whether BINARY must load libhinesbatch.so (shared) or must not (static).
needs() {
    local bin=$1 want=$2 got=no
    if readelf -d "$bin" | grep -q 'NEEDED.*libhinesbatch\.so'; then
        got=yes
    fi
    [ "$got" = "$want" ] || fail "$bin: loads libhinesbatch.so: $got, expected $want"
}

# against PREFIX WORK: the consumers, listed in WORK/programs.
against() {
    local prefix=$1 work=$2 cmake_args=() pc_path=""
    mkdir -p "$work/bin"
    : >"$work/programs"
    if [ "$prefix" != system ]; then
        cmake_args=(-DCMAKE_PREFIX_PATH="$prefix")
        pc_path=$(dirname "$(find "$prefix" -name hinesbatch.pc | head -n1)")
        [ -n "$pc_path" ] || fail "no hinesbatch.pc under $prefix"
    fi

    # find_package: a C project and a C++ project (no C language), each with
    # both libraries; each binary must (not) load the shared library.
    local lang dir
    for lang in c cxx; do
        dir=$here
        [ $lang = c ] || dir=$here/cxx
        echo "== find_package(hinesbatch), $lang project: shared and static =="
        step "$work/cmake-$lang.configure.log" cmake -S "$dir" -B "$work/cmake-$lang" \
            "${cmake_args[@]}" -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_COMPILER="$cc" \
            -DCMAKE_CXX_COMPILER="$cxx"
        step "$work/cmake-$lang.build.log" cmake --build "$work/cmake-$lang"
        for kind in shared static; do
            cp "$work/cmake-$lang/app_$kind" "$work/bin/cmake-$lang-$kind"
            echo "cmake-$lang-$kind" >>"$work/programs"
        done
        needs "$work/bin/cmake-$lang-shared" yes
        needs "$work/bin/cmake-$lang-static" no
    done
    # The shared library asks its users for nothing: a C++ project where not
    # one of the backends' packages can be found still links it.
    echo "== find_package(hinesbatch COMPONENTS shared) with no backend package findable =="
    local none=(-DCMAKE_DISABLE_FIND_PACKAGE_OpenMP=ON -DCMAKE_DISABLE_FIND_PACKAGE_OpenCL=ON
                -DCMAKE_DISABLE_FIND_PACKAGE_CUDAToolkit=ON -DCMAKE_DISABLE_FIND_PACKAGE_Threads=ON)
    step "$work/cmake-bare.configure.log" cmake -S "$here/cxx" -B "$work/cmake-bare" \
        "${cmake_args[@]}" "${none[@]}" -DHB_CONSUMER_LINK=shared -DCMAKE_BUILD_TYPE=Release \
        -DCMAKE_CXX_COMPILER="$cxx"
    step "$work/cmake-bare.build.log" cmake --build "$work/cmake-bare"
    # ... while asking for the static library there fails, naming what is missing.
    if cmake -S "$here/cxx" -B "$work/cmake-bare-static" "${cmake_args[@]}" "${none[@]}" \
        -DHB_CONSUMER_LINK=static -DCMAKE_CXX_COMPILER="$cxx" >"$work/cmake-bare-static.log" 2>&1; then
        fail "COMPONENTS static configured with its dependencies unfindable"
    fi
    grep -q "hinesbatch_static needs" "$work/cmake-bare-static.log" ||
        { cat "$work/cmake-bare-static.log" >&2; fail "COMPONENTS static: no reason given"; }

    # pkg-config, dynamic and --static, from C and C++. --static lists what
    # libhinesbatch.a needs; the archive itself is chosen by name
    # (-l:libhinesbatch.a), as the shared library is beside it.
    local pc=(env PKG_CONFIG_PATH="$pc_path" pkg-config) cflags libs slibs libdir version
    cflags=$("${pc[@]}" --cflags hinesbatch)
    libs=$("${pc[@]}" --libs hinesbatch)
    slibs=$("${pc[@]}" --static --libs hinesbatch)
    libdir=$("${pc[@]}" --variable=libdir hinesbatch)
    version=$("${pc[@]}" --modversion hinesbatch)
    echo "== pkg-config hinesbatch $version: $cflags $libs; --static: $slibs =="
    slibs=${slibs/-lhinesbatch/-l:libhinesbatch.a}
    local def=-DHB_EXPECTED_VERSION=\"$version\"
    # shellcheck disable=SC2086 # the flags are lists of words
    {
        step "$work/pc-c.log" "$cc" -std=c11 -Wall -Wextra "$def" -o "$work/bin/pc-c-shared" \
            "$here/main.c" $cflags $libs -Wl,-rpath,"$libdir"
        step "$work/pc-c-static.log" "$cc" -std=c11 -Wall -Wextra "$def" \
            -o "$work/bin/pc-c-static" "$here/main.c" $cflags $slibs
        step "$work/pc-cxx.log" "$cxx" -std=c++11 -Wall -Wextra "$def" \
            -o "$work/bin/pc-cxx-shared" "$here/cxx/main.cpp" $cflags $libs -Wl,-rpath,"$libdir"
        step "$work/pc-cxx-static.log" "$cxx" -std=c++11 -Wall -Wextra "$def" \
            -o "$work/bin/pc-cxx-static" "$here/cxx/main.cpp" $cflags $slibs
    }
    for p in pc-c-shared pc-c-static pc-cxx-shared pc-cxx-static; do
        echo "$p" >>"$work/programs"
    done
    needs "$work/bin/pc-c-shared" yes
    needs "$work/bin/pc-cxx-shared" yes
    needs "$work/bin/pc-c-static" no
    needs "$work/bin/pc-cxx-static" no

    # hinesbatch_add_mechanisms(): a project's own .mod file and a shipped one,
    # translated at its build time, where a Python with sympy is installed.
    local py have_sympy=no
    for py in python3 /usr/bin/python3; do
        if command -v "$py" >/dev/null 2>&1 && "$py" -c 'import sympy' >/dev/null 2>&1; then
            have_sympy=yes
        fi
    done
    if [ $have_sympy = yes ]; then
        echo "== hinesbatch_add_mechanisms(), C project: pas.mod and its own kleak.mod =="
        step "$work/cmake-nmodl.configure.log" cmake -S "$here/nmodl" -B "$work/cmake-nmodl" \
            "${cmake_args[@]}" -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_COMPILER="$cc"
        step "$work/cmake-nmodl.build.log" env PYTHONDONTWRITEBYTECODE=1 cmake --build "$work/cmake-nmodl"
        cp "$work/cmake-nmodl/app_nmodl" "$work/bin/cmake-nmodl"
        echo "cmake-nmodl" >>"$work/programs"
    else
        echo "== hinesbatch_add_mechanisms(): skipped (no python3 that imports sympy) =="
    fi
    echo "built: $(tr '\n' ' ' <"$work/programs")"
}

# run WORK: every consumer; 77 when all of them skipped.
run() {
    local work=$1 p status ran=0 skipped=0 failed=""
    while read -r p; do
        echo "== $p (${HINESBATCH_BACKEND:-auto}) =="
        status=0
        "$work/bin/$p" || status=$?
        case $status in
        0) ran=$((ran + 1)) ;;
        77) skipped=$((skipped + 1)) ;;
        *) failed="$failed $p" ;;
        esac
    done <"$work/programs"
    [ -z "$failed" ] || fail "consumers:$failed"
    if [ "$ran" -eq 0 ] && [ "$skipped" -gt 0 ]; then
        exit 77
    fi
    echo "check_install: $ran consumers OK"
}

# package BUILD WORK: the packages cpack makes, checked, and the .deb unpacked and used.
package() {
    local build=$1 work=$2 deb tgz root f
    echo "== cpack =="
    step "$work/cpack.log" cpack --config "$build/CPackConfig.cmake" -B "$work/out"
    deb=$(find "$work/out" -maxdepth 1 -name 'hinesbatch_*.deb' | head -n1)
    tgz=$(find "$work/out" -maxdepth 1 -name 'hinesbatch-*.tar.gz' | head -n1)
    if [ -z "$deb" ] || [ -z "$tgz" ]; then
        fail "cpack made no .deb or .tar.gz: $(ls "$work/out")"
    fi
    echo "$(basename "$deb"): $(dpkg-deb -f "$deb" Package Version Architecture Depends | tr '\n' ' ')"
    dpkg-deb -f "$deb" Depends | grep -q 'libc6' || fail "$deb: Depends lacks libc6"
    root=$work/root
    dpkg-deb -x "$deb" "$root"
    tar -tzf "$tgz" >"$work/tgz.list"
    # What both packages must hold (the .tar.gz is the same tree without /usr).
    local files=(include/hinesbatch.h include/hinesbatch_version.h include/hinesbatch_sim.h
                 lib/libhinesbatch.a lib/cmake/hinesbatch/hinesbatchConfig.cmake
                 lib/cmake/hinesbatch/hb_nmodl.cmake share/hinesbatch/nmodl/hb_nmodl.py
                 share/hinesbatch/nmodl/runtime/hb_mech_host.h share/hinesbatch/mechanisms/hh.mod
                 lib/pkgconfig/hinesbatch.pc share/doc/hinesbatch/LICENSE)
    if [ "${HB_PACKAGE_CLI:-1}" = 1 ]; then
        files+=(bin/hinesbatch share/hinesbatch/morphologies/nrn__c91662.swc
                share/hinesbatch/scripts/plot_traces.py)
    fi
    for f in "${files[@]}"; do
        [ -e "$root/usr/$f" ] || fail "$deb has no /usr/$f"
        grep -q "/$f\$" "$work/tgz.list" || fail "$tgz has no $f"
    done
    ls "$root"/usr/lib/libhinesbatch.so.* >/dev/null 2>&1 || fail "$deb has no libhinesbatch.so.*"
    echo "== the unpacked .deb =="
    if [ "${HB_PACKAGE_CLI:-1}" = 1 ]; then
        [ "$("$root/usr/bin/hinesbatch" --version)" = "hinesbatch $(dpkg-deb -f "$deb" Version)" ] ||
            fail "its hinesbatch --version is not the package's version"
        "$root/usr/bin/hinesbatch" devices
        # Its shipped neuron from beside it, whatever the working directory.
        (cd "$work" && "$root/usr/bin/hinesbatch" simulate --cells 1 --tstop 1 --record 0) ||
            fail "the unpacked hinesbatch simulate (the shipped neuron) failed"
    fi
    against "$root/usr" "$work"
    run "$work"
}

[ $# -ge 1 ] || fail "usage: check_install.sh install|against|run|package ARGS (see its header)"
mode=$1
shift
case $mode in
install)
    [ $# -eq 2 ] || fail "usage: check_install.sh install BUILD WORK"
    rm -rf "$2"
    mkdir -p "$2"
    step "$2/install.log" cmake --install "$1" --prefix "$2/prefix"
    against "$2/prefix" "$2" ;;
against)
    [ $# -eq 2 ] || fail "usage: check_install.sh against PREFIX WORK"
    against "$1" "$2" ;;
run)
    [ $# -eq 1 ] || fail "usage: check_install.sh run WORK"
    run "$1" ;;
package)
    [ $# -eq 2 ] || fail "usage: check_install.sh package BUILD WORK"
    rm -rf "$2"
    mkdir -p "$2"
    package "$1" "$2" ;;
*) fail "unknown mode '$mode' (install, against, run, package)" ;;
esac
