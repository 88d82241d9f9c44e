#!/usr/bin/env bash
# check_cli.sh: hostile command lines against `hinesbatch`: each case's exit status and the words its stderr must hold.
# Usage: check_cli.sh HINESBATCH SOURCE_DIR [--valgrind]
#   HINESBATCH   the program (an absolute path); SOURCE_DIR the repository (for data/).
#   HB_PLOT_PYTHON (environment): the Python with matplotlib the build found (empty:
#                none), so whether a --plot is to succeed (0) or fail (1) here.
#   --valgrind   run only the error paths marked `tl` under valgrind, failing on any
#                definite or indirect leak (valgrind's status 99). Few: valgrind takes
#                seconds to start a program linked with CUDA's libraries. They are the
#                paths that fail after something was made (a simulation, the backends).
# Every case runs in a fresh temporary directory, on the serial backend. The exit
# statuses are the CLI's convention (docs/cli.md): 0 success, 1 failure while
# running, 2 usage error. Prints one line per case; exits 1 if any case failed.
set -u
exe=$1
src=$2
mode=${3:-}
[ -x "$exe" ] || { echo "check_cli: $exe is not a program"; exit 1; }
[ -z "$mode" ] || [ "$mode" = --valgrind ] || { echo "check_cli: unknown mode $mode"; exit 1; }
export HINESBATCH_BACKEND=serial OMP_WAIT_POLICY=passive
# In a sanitized build (HINESBATCH_SANITIZE) a finding, a leak included, exits
# with 99, a status no case expects: an error path that leaks fails its case
# even though it was to fail with 1.
for v in ASAN_OPTIONS LSAN_OPTIONS UBSAN_OPTIONS TSAN_OPTIONS; do
    export "$v=${!v:+${!v}:}exitcode=99"
done
unset HINESBATCH_STRATEGY HINESBATCH_VERBOSE HINESBATCH_PYTHON HINESBATCH_DATA_DIR
plot_rc=0 # a --plot that cannot be made fails the run
[ -n "${HB_PLOT_PYTHON:-}" ] || plot_rc=1
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
swc="$src/data/morphologies/jaxley__morph_ca1_n120_250.swc"
fails=0 cases=0 n=0
stdout_to=/dev/null # where the next case's standard output goes
case_env=()         # VAR=value words for the next case's environment
case_vm=            # the next case's address-space limit (KiB, ulimit -v); empty: none
case_timeout=60     # the next case's time limit (s)

# run LEAKCHECK RC WANT ARGS...: one case in its own directory $dir.
run() {
    local leak=$1 want_rc=$2 want=$3 rc out
    shift 3
    n=$((n + 1))
    if [ "$mode" = --valgrind ] && [ "$leak" = 0 ]; then
        stdout_to=/dev/null case_env=() case_vm= case_timeout=60
        return 0
    fi
    dir="$root/case$n"
    mkdir -p "$dir"
    local pre=()
    if [ "$mode" = --valgrind ]; then
        pre=(valgrind -q --leak-check=full --errors-for-leak-kinds=definite,indirect
             --show-leak-kinds=definite,indirect --error-exitcode=99)
    fi
    cases=$((cases + 1))
    (cd "$dir" && { [ -z "$case_vm" ] || ulimit -v "$case_vm"; } &&
        timeout "$case_timeout" env "${case_env[@]}" "${pre[@]}" "$exe" "$@" >"$stdout_to" 2>"$dir/stderr")
    rc=$?
    out=$(cat "$dir/stderr")
    if [ "$rc" -eq "$want_rc" ] && [[ "$out" == *"$want"* ]]; then
        printf 'ok   %d  %shinesbatch %s\n' "$rc" "${case_env[*]:+${case_env[*]} }" "$(printf '%q ' "$@")"
    else
        fails=$((fails + 1))
        printf 'FAIL %shinesbatch %s\n     wanted status %d and stderr holding "%s"; got status %d, stderr:\n' \
            "${case_env[*]:+${case_env[*]} }" "$(printf '%q ' "$@")" "$want_rc" "$want" "$rc"
        sed -n '1,8s/^/       | /p' "$dir/stderr"
    fi
    stdout_to=/dev/null
    case_env=()
    case_vm= case_timeout=60
}
t() { run 0 "$@"; }  # a case
tl() { run 1 "$@"; } # a case whose error path also runs under valgrind
# check CONDITION MESSAGE: an extra check after the case before it (in $dir).
check() {
    [ "$mode" = --valgrind ] && return 0
    if ! (cd "$dir" && eval "$1"); then
        fails=$((fails + 1))
        echo "FAIL   ... $2"
    else
        echo "ok     ... $2"
    fi
}

sim=(simulate --swc "$swc" --cells 2 --tstop 1)

echo "== the program and its commands"
t 2 "usage: hinesbatch COMMAND"
t 2 "unknown command 'frobnicate'" frobnicate
t 0 "" --help
t 0 "" --version
t 2 "unexpected argument 'x'" --version x
t 0 "" devices
case_env=(HINESBATCH_BACKEND=bogus)
t 1 "hinesbatch devices: auto: HINESBATCH_BACKEND='bogus'" devices
case_env=(HINESBATCH_BACKEND=bogus)
t 1 "hinesbatch simulate: HB_ERR_INVALID_ARGUMENT: invalid argument: HINESBATCH_BACKEND='bogus'" simulate --swc "$swc" --cells 1 --tstop 1
t 0 "" devices --help
t 2 "hinesbatch devices: unexpected argument 'x'" devices x
t 2 "hinesbatch devices: unknown option '--all'" devices --all
for c in solve bench morph simulate cardiac; do t 0 "" "$c" --help; t 0 "" "$c" -h; done
stdout_to=/dev/full t 1 "error writing standard output" devices
stdout_to=/dev/full t 1 "error writing standard output" simulate --help

echo "== options: unknown, abbreviated, missing values, values to switches, stray arguments"
t 2 "hinesbatch simulate: unknown option '--bogus'" simulate --bogus
t 2 "hinesbatch simulate: unknown option '--cell'" simulate --cell 5
t 2 "hinesbatch simulate: unknown option '-x'" simulate -x
t 2 "hinesbatch simulate: --cells needs a value" simulate --cells
t 2 "hinesbatch simulate: --csv needs a value (got the option '--plot'" simulate --csv --plot x.png
t 2 "hinesbatch simulate: this option takes no value: '--mix=1'" simulate --mix=1
t 2 "hinesbatch simulate: unexpected argument 'stray'" simulate stray
t 2 "hinesbatch simulate: unexpected argument 'x'" simulate --cells 2 -- x
t 2 "hinesbatch solve: unknown option '--system'" solve --system 5
t 2 "hinesbatch solve: --rows needs a value" solve --rows
t 2 "hinesbatch solve: unexpected argument '5'" solve 5
t 2 "hinesbatch solve: this option takes no value: '--multi=yes'" solve --multi=yes
t 2 "hinesbatch bench: unknown option '--sys'" bench --sys 4
t 2 "hinesbatch bench: --csv needs a value" bench --quick --csv
t 2 "hinesbatch bench: unexpected argument 'thomas'" bench --quick thomas
t 2 "hinesbatch bench: nothing to run" bench
t 2 "hinesbatch morph: no SWC file given" morph
t 2 "hinesbatch morph: unexpected argument 'b.swc'" morph a.swc b.swc
t 2 "hinesbatch morph: unknown option '--bogus'" morph "$swc" --bogus
t 2 "hinesbatch morph: --nseg needs a value" morph "$swc" --nseg

echo "== integers: empty, garbage, floats, overflow, range, sign"
t 2 "--cells: '1e12' is not an integer in [1, 2147483647]" simulate --cells 1e12
t 2 "--cells: '' is not an integer" simulate --cells ''
t 2 "--cells: '5x' is not an integer" simulate --cells 5x
t 2 "--cells: ' 5' is not an integer" simulate --cells ' 5'
t 2 "--cells: '0x10' is not an integer" simulate --cells 0x10
t 2 "--cells: '0' is not an integer in [1," simulate --cells 0
t 2 "--cells: '-3' is not an integer in [1," simulate --cells -3
t 2 "--cells: '99999999999999999999' is not an integer" simulate --cells 99999999999999999999
t 2 "--nseg: 'abc' is not an integer in [0, 1000000]" simulate --policy section --nseg abc
t 2 "--nseg: '5000000000' is not an integer" simulate --policy section --nseg 5000000000
t 2 "--nseg: '-1' is not an integer" simulate --policy section --nseg -1
t 2 "--record: '-1' is not an integer in [0," simulate --record -1
t 2 "--synthetic: '0' is not an integer in [1," simulate --synthetic 0
t 2 "--seed: 'abc' is not an integer in [0, 18446744073709551615]" simulate --seed abc
t 2 "--seed: '-1' is not an integer" simulate --seed -1
t 2 "--seed: '18446744073709551616' is not an integer" simulate --seed 18446744073709551616
t 2 "--systems: '0' is not an integer" solve --systems 0
t 2 "--systems: '1.5' is not an integer" solve --systems 1.5
t 2 "--rows: '3000000000' is not an integer in [1, 2147483647]" solve --rows 3000000000
t 2 "--reps: '' is not an integer" solve --reps=
t 2 "--seed: 'abc' is not an integer" solve --seed abc
t 2 "is more than 2^56 rows" solve --systems 1099511627776 --rows 2147483647
t 2 "--nseg: '0' is not an integer in [1, 1000000]" morph "$swc" --nseg 0
# The compartment cap: a bad value is a usage error; a cell past it fails the run.
t 2 "--max-compartments: '0' is not an integer in [1, 2147483647]" morph "$swc" --max-compartments 0
t 2 "--max-compartments: '3e9' is not an integer" simulate --max-compartments 3e9
t 1 "max_compartments" morph "$swc" --max-compartments 5
t 1 "max_compartments" simulate --swc "$swc" --cells 1 --tstop 0.1 --record 0 --max-compartments 5
t 2 "--max-rows: '0' is not an integer" bench --quick --max-rows 0
t 2 "--serial-max-rows: '-1' is not an integer" bench --quick --serial-max-rows -1
t 2 "--ring-mib: '2000000' is not an integer in [1, 1048576]" bench --quick --ring-mib 2000000
t 2 "--max-reps: '1e3' is not an integer" bench --quick --max-reps 1e3
t 2 "--seed: '1.5' is not an integer" bench --quick --seed 1.5

echo "== counts past this machine's memory: refused before anything that size is made"
# tq: a case that must end within 10 s in 1 GiB of address space (ulimit -v;
# not under a sanitizer, whose shadow memory needs terabytes of it): the
# refusal is arithmetic, never an allocation that happens to fail.
tq() {
    [ "${HB_CLI_SANITIZED:-0}" = 1 ] || case_vm=1048576
    case_timeout=10
    t "$@"
}
mem="of memory, more than this machine's"
tq 1 "hinesbatch simulate: --cells 2147483647 (536870911750 compartments in all): needs at least" \
    simulate --swc "$swc" --cells 2147483647
check "grep -q \"$mem\" stderr" "the limit is named"
tq 1 "hinesbatch simulate: --cells 100000000 (6400000000 compartments in all): needs" \
    simulate --synthetic 64 --cells 100000000
tq 1 "hinesbatch simulate: --cells 2147483647 (2147483647 compartments in all): needs" \
    simulate --synthetic 64 --mix --cells 2147483647
tq 2 "hinesbatch simulate: --synthetic 2147483647: more than --max-compartments 1000000" \
    simulate --synthetic 2147483647 --cells 1
tq 2 "--synthetic 5000: more than --max-compartments 4000 compartments per cell (as given)" \
    simulate --synthetic 5000 --max-compartments 4000
tq 1 "hinesbatch network: --cells 100000000 (" network --swc "$swc" --cells 100000000 --tstop 1
check "grep -q \"$mem\" stderr" "the limit is named"
tq 1 "hinesbatch solve: --systems 100000000000 x --rows 1000: needs at least" \
    solve --systems 100000000000 --rows 1000
tq 1 "hinesbatch solve: --systems 1000000000 x --rows 1000000: needs" \
    solve --systems 1000000000 --rows 1000000 --multi
# bench: a point over --max-rows is skipped before its tables are made; one
# allowed by --max-rows but past the machine fails by name.
tq 0 "8796093022208 rows > --max-rows 268435456" bench --backend serial --systems 1099511627776 --rows 8
tq 0 "9223372036854775807 rows > --max-rows" bench --backend serial --systems 1099511627776 \
    --rows 1-2147483647 --max-rows 4611686018427387904
tq 0 "70368744177664 rows > --max-rows" bench --backend serial --kind hines \
    --morphology levels:64:2 --systems 1099511627776
tq 1 "hinesbatch bench: --systems 1099511627776 (8796093022208 rows in all): needs" \
    bench --backend serial --systems 1099511627776 --rows 8 --max-rows 4611686018427387904
tq 1 "hinesbatch bench: --systems 1099511627776 (70368744177664 rows in all): needs" \
    bench --backend serial --kind hines --morphology levels:64:2 --systems 1099511627776 \
    --max-rows 4611686018427387904
tq 1 "hinesbatch bench: --systems 1099511627776 (" bench --suite simulate --backend serial \
    --precision double --morphology jaxley__morph_ca1_n120_250 --systems 1099511627776
tq 1 "hinesbatch bench: --systems 2147483647 (" bench --suite simulate --backend serial \
    --precision double --morphology jaxley__morph_ca1_n120_250 --systems 2147483647

echo "== reals: empty, garbage, nan, inf, overflow, range"
t 2 "--tstop: 'inf' is not a finite number >= 0" simulate --tstop inf
t 2 "--tstop: 'nan' is not a finite number" simulate --tstop nan
t 2 "--tstop: '-1' is not a finite number >= 0" simulate --tstop -1
t 2 "--tstop: '1e999' is not a finite number" simulate --tstop 1e999
t 2 "--tstop: '' is not a finite number" simulate --tstop ''
t 2 "--tstop: '5ms' is not a finite number" simulate --tstop 5ms
t 2 "--dt: '0' is not a finite number > 0" simulate --dt 0
t 2 "--dt: '-0.025' is not a finite number > 0" simulate --dt -0.025
t 2 "--dt: '1e-400' is not a finite number" simulate --dt 1e-400
t 2 "--celsius: '-300' is not a finite number in [-273.15, 1000]" simulate --celsius -300
t 2 "--amp-spread: '1.5' is not a finite number in [0, 1]" simulate --amp-spread 1.5
t 2 "--amp-spread: 'NaN' is not a finite number" simulate --amp-spread NaN
t 2 "--iclamp: '5,40' is not ONSET,DUR,AMP" simulate --iclamp 5,40
t 2 "--iclamp: '5,,1' has an empty item" simulate --iclamp 5,,1
t 2 "--iclamp: '5,40,1,2' has more than 3 items" simulate --iclamp 5,40,1,2
t 2 "--iclamp AMP: 'nan' is not a finite number" simulate --iclamp 5,40,nan
t 2 "--iclamp ONSET: '-5' is not a finite number >= 0" simulate --iclamp -5,40,1
t 2 "--iclamp DUR: 'x' is not a finite number" simulate --iclamp 5,x,1
t 2 "--d-lambda: '0' is not a finite number in (0," morph "$swc" --d-lambda 0
t 2 "--scale: 'inf' is not a finite number" morph "$swc" --scale inf
t 2 "--ra: '-35' is not a finite number" morph "$swc" --ra -35
t 2 "--cm: '' is not a finite number" morph "$swc" --cm=
t 2 "--max-seconds: '-1' is not a finite number >= 0" bench --quick --max-seconds -1
t 2 "--target-s: '0' is not a finite number in (0, 1e+06]" bench --quick --target-s 0
t 2 "--wall-cap: 'nan' is not a finite number" bench --quick --wall-cap nan
t 2 "--group-size: '-1' is not an integer in [0, 2147483647]" bench --quick --group-size -1

echo "== names: precision, layout, policy, strategy, backend, suite, kind, padding"
t 2 "hinesbatch solve: --precision: 'half' is not one of double, float" solve --precision half
t 2 "hinesbatch simulate: --precision: 'half' is not one of double, float" simulate --precision half
t 2 "hinesbatch solve: --layout: 'bogus' is not one of auto, flat" solve --layout bogus
t 2 "hinesbatch simulate: --layout: 'bogus' is not one of" simulate --layout bogus
t 2 "hinesbatch simulate: --layout: '' is not one of" simulate --layout ''
t 2 "--policy: 'segment' is not one of sample, section" simulate --policy segment
t 2 "--policy: 'Sample' is not one of sample, section" morph "$swc" --policy Sample
t 2 "--precision: 'half' is not one of double, float" bench --precision double,half
t 2 "--layout: 'bogus' is not one of" bench --layout bogus
t 2 "--layout NAME:BS: '0' is not an integer in [1," bench --layout block:0
t 2 "--layout NAME:BS: 'x' is not an integer" bench --layout block:x
t 2 "--layout NAME/PADDING: 'bogus' is not one of auto, compute, skip" bench --layout block/bogus
t 2 "--strategy: 'bogus' is not one of auto, per-system" bench --kind hines --strategy bogus
t 2 "--strategy: 'bogus' is not one of" bench --quick --strategy bogus
t 2 "--backend: 'bogus' is not one of serial, openmp, opencl, cuda" bench --quick --backend bogus
t 2 "--backend: 'auto' is not one of serial" bench --quick --backend auto
t 2 "--backend: 'serial,,cuda' has an empty item" bench --quick --backend serial,,cuda
t 2 "--suite: 'bogus' is not one of thomas" bench --suite bogus
t 2 "--kind: 'cable' is not one of thomas, hines" bench --kind cable

echo "== bench lists"
t 2 "--systems: '4x' is not an integer" bench --systems 4x
t 2 "--systems: '4,,5' has an empty item" bench --systems 4,,5
t 2 "--systems: '' has an empty item" bench --systems ''
t 2 "--systems: '1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,...' has more than 32 items" \
    bench --systems 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33
t 2 "--rows: '8-4' has LO > HI" bench --rows 8-4
t 2 "--rows LO-HI: 'x' is not an integer" bench --rows 5-x
t 2 "--rows: '-5' is not N or LO-HI" bench --rows -5
t 2 "--morphology levels:N: 'abc' is not an integer" bench --morphology levels:abc:4
t 2 "--morphology levels:N:L: '99' is not an integer in [1, 30]" bench --morphology levels:64:99
t 2 "--morphology: 'levels:64:4:1' is not levels:N:L" bench --morphology levels:64:4:1
t 2 "--morphology: 'mix:foo' is not mix:real or mix:random" bench --morphology mix:foo
t 2 "--morphology random:SEED: '-1' is not an integer" bench --morphology random:-1
t 2 "--morphology branchy:N:PERCENT: '200' is not a finite number in [0, 100]" \
    bench --morphology branchy:100:200:1
t 2 "--rows applies to thomas points" bench --kind hines --rows 5
t 2 "--morphology applies to hines points" bench --kind thomas --morphology mix:real
t 2 "--strategy applies to hines points" bench --suite thomas --strategy fine-tree
t 2 "--rows applies to thomas points" bench --suite multi --rows 5
t 2 "--kind chooses single points" bench --suite thomas --kind hines
t 2 "--suite simulate takes --systems (cells)" bench --suite simulate --rows 5
t 2 "--suite simulate takes --systems (cells)" bench --suite simulate --layout flat
t 2 "--suite simulate takes --systems (cells)" bench --suite simulate --quick --strategy per-system
t 2 "'mix:real': the simulate suite takes a shipped neuron" bench --suite simulate --morphology mix:real
# Options a run would ignore: --shared-couplings on thomas points or
# simulations, --group-size on simulations, --epoch with the stages engine.
t 2 "--shared-couplings applies to hines points" bench --kind thomas --shared-couplings
t 2 "--shared-couplings applies to hines points" bench --suite thomas --shared-couplings
t 2 "--group-size and --shared-couplings do not apply" bench --suite simulate --shared-couplings
t 2 "--group-size and --shared-couplings do not apply" bench --suite simulate --group-size 64
t 2 "--epoch applies to the cells engine" simulate --engine stages --epoch 10
t 2 "--epoch: '-1' is not an integer in [0, 9223372036854775807]" simulate --epoch -1
t 2 "--epoch: '9223372036854775808' is not an integer" simulate --epoch 9223372036854775808
t 2 "--group-size: '1025' is not an integer in [0, 1024]" simulate --group-size 1025
t 2 "--group-size: '2147483648' is not an integer in [0, 2147483647]" bench --quick --group-size 2147483648
t 0 "" bench --backend serial --kind hines --morphology levels:64:2 --systems 3 --shared-couplings \
    --group-size 2147483647 --max-reps 3 --target-s 0.01
t 0 "" simulate --synthetic 64 --cells 2 --tstop 0.1 --engine auto --epoch 9223372036854775807 \
    --group-size 1024
tl 1 "FAILED simulate double 1 x no-such-neuron" bench --suite simulate --quick --systems 1 \
    --precision double --backend serial --morphology no-such-neuron

echo "== options that contradict each other or would be ignored"
t 2 "--swc and --synthetic exclude each other" simulate --swc "$swc" --synthetic 64
t 2 "--mix needs --synthetic" simulate --mix
t 2 "--policy and --nseg apply to SWC cells" simulate --synthetic 64 --policy section
t 2 "--nseg needs --policy section" simulate --nseg 3
t 2 "--nseg needs --policy section" simulate --policy sample --nseg 3
t 2 "--csv and --plot need --record" simulate --record 0 --csv t.csv
t 2 "--nseg, --d-lambda and --seg-length exclude each other" morph "$swc" --nseg 2 --d-lambda 0.1
t 2 "--nseg needs --policy section" morph "$swc" --policy sample --nseg 2

echo "== the library refuses what the CLI cannot know (failure, 1)"
t 1 "tstop = 1e+30 ms at dt = 0.025 ms is 4e+31 steps, more than 2^62" "${sim[@]}" --tstop 1e30
t 1 "more than 2^62" "${sim[@]}" --dt 1e-300
t 1 "cannot open" simulate --swc "$root/none.swc" --cells 2
t 1 "cannot open" morph "$root/none.swc"
t 1 "cannot open" bench --backend serial --kind hines --morphology "$root/none.swc" --systems 2

echo "== outputs that cannot be written (failure, 1)"
t 1 "hinesbatch simulate: --spikes: cannot write '/nonexistent/x'" "${sim[@]}" --spikes /nonexistent/x
t 1 "hinesbatch simulate: --csv: cannot write '/nonexistent/t.csv'" "${sim[@]}" --csv /nonexistent/t.csv
t 1 "hinesbatch simulate: --plot: cannot write '/nonexistent/p.png'" "${sim[@]}" --plot /nonexistent/p.png
t 1 "hinesbatch simulate: --dump-cell: cannot write '/nonexistent/d'" "${sim[@]}" --dump-cell /nonexistent/d
t 1 "hinesbatch simulate: --csv: cannot write '.': Is a directory" "${sim[@]}" --csv .
t 1 "hinesbatch simulate: --csv: cannot write '': empty file name" "${sim[@]}" --csv=
t 1 "hinesbatch simulate: --csv: error writing '/dev/full'" "${sim[@]}" --csv /dev/full
tl 1 "hinesbatch simulate: --spikes: error writing '/dev/full'" "${sim[@]}" --spikes /dev/full
t 1 "hinesbatch simulate: --dump-cell: error writing '/dev/full'" "${sim[@]}" --dump-cell /dev/full
t 1 "hinesbatch bench: --csv: cannot write '/nonexistent/x.csv'" \
    bench --backend serial --systems 4 --rows 8 --csv /nonexistent/x.csv
t 1 "hinesbatch bench: --csv: error writing '/dev/full'" \
    bench --backend serial --systems 4 --rows 8 --max-reps 3 --csv /dev/full
# network: values, files, a run that writes its spikes.
t 2 "hinesbatch network: --cells: '0' is not an integer in [1, 100000000]" network --cells 0
t 2 "hinesbatch network: --delay 0.01 ms is below --dt 0.025 ms" network --delay 0.01
t 2 "hinesbatch network: --topology: 'star' is not one of ring, random" network --topology star
t 2 "hinesbatch network: --delay-max 2 < --delay 3" network --delay 3 --delay-max 2
t 2 "hinesbatch network: unexpected argument 'x'" network x
t 1 "hinesbatch network: --spikes: cannot write '/nonexistent/x'" network --cells 4 --tstop 1 \
    --spikes /nonexistent/x
tl 1 "hinesbatch network: --spikes: error writing '/dev/full'" network --cells 4 --tstop 2 \
    --spikes /dev/full
tl 1 "hinesbatch network: --connections: cannot read '/nonexistent/c.csv'" network \
    --connections /nonexistent/c.csv
printf 'src,dst,weight,delay\n0,1,0.5,1\n0,9,0.5,1\n' >"$root/conn.csv"
tl 1 "hinesbatch network: --connections $root/conn.csv:3: need src,dst in [0, 4)" network \
    --cells 4 --connections "$root/conn.csv"
# Rows read whole: trailing text, an integer past int64 and the rest of a
# line too long for the reader are refused, not taken as (extra) connections.
printf 'src,dst,weight,delay\n0,1,0.5,1xyz\n' >"$root/trail.csv"
t 1 "hinesbatch network: --connections $root/trail.csv:2: '0,1,0.5,1xyz' is not src,dst,weight,delay" \
    network --cells 4 --connections "$root/trail.csv"
printf 'src,dst,weight,delay\n99999999999999999999,1,0.5,1\n' >"$root/ovf.csv"
t 1 "ovf.csv:2: '99999999999999999999,1,0.5,1' is not src,dst,weight,delay" network --cells 4 \
    --connections "$root/ovf.csv"
printf 'src,dst,weight,delay\n0,1,0.5,1%600s1,0,0.5,2\n' '' >"$root/long.csv"
t 1 "long.csv:2: a line of more than 510 characters" network --cells 4 --connections "$root/long.csv"
printf 'src,dst,weight,delay\n0,1,0.5,1\0\n' >"$root/nul.csv"
t 1 "nul.csv:2: a NUL byte in the line" network --cells 4 --connections "$root/nul.csv"
printf 'src,dst,weight,delay,note\n0,1,0.5,1\n' >"$root/hdr.csv"
t 1 "hdr.csv: the header must be src,dst,weight,delay" network --cells 4 --connections "$root/hdr.csv"
printf 'src,dst,weight,delay\r\n0, 1, 0.5, 1\r\n' >"$root/crlf.csv"
t 0 "" network --cells 4 --tstop 2 --connections "$root/crlf.csv"
t 0 "" network --cells 6 --tstop 8 --spikes spikes.csv
check '[ "$(head -1 spikes.csv)" = gid,spike_ms ] && [ "$(wc -l <spikes.csv)" -ge 6 ]' \
    "network: a ring of 6 writes a spike of every cell"
# A link to a missing directory passes the check before the run; the open
# fails after the backends are open, and everything made is freed.
ln -s /nonexistent/dir/x.csv "$root/dangling.csv"
tl 1 "hinesbatch bench: --csv: cannot write" \
    bench --backend serial --systems 4 --rows 8 --csv "$root/dangling.csv"
t 1 "hinesbatch simulate: --spikes: cannot write" "${sim[@]}" --spikes "$root/dangling.csv"

echo "== helper programs: an argument vector, never a shell"
# Quotes, ';' and $(...) in file names reach the plot script as characters: no
# file PWNED* may appear. Whether the plot is written depends on matplotlib
# ($plot_rc); a plot that cannot be made fails the run after the other outputs.
t $plot_rc "" "${sim[@]}" --plot "x';touch PWNED1;'.png" --spikes "s';touch PWNED2;'.csv"
check '! ls PWNED* >/dev/null 2>&1' "no command ran from the --plot and --spikes names"
t $plot_rc "" "${sim[@]}" --plot '$(touch PWNED3).png' --csv '`touch PWNED4`.csv'
check '! ls PWNED* >/dev/null 2>&1' "no command ran from \$(...) and backquotes"
check '[ -s "\`touch PWNED4\`.csv" ]' "the traces CSV has the name as given"
t $plot_rc "" "${sim[@]}" --plot -dash.png --csv=--dash.csv --iclamp 1,2,-0.5
check '[ -s ./--dash.csv ]' "--csv=--dash.csv writes a file of that name"
if [ $plot_rc = 0 ]; then
    check '[ -s ./-dash.png ]' "--plot -dash.png writes a file of that name (negative amplitudes too)"
fi

echo "== the plot's interpreter and script: each cause named, status 1"
# The interpreter found at configure time is a path: PATH does not matter to it.
case_env=(PATH=/nonexistent)
if [ $plot_rc = 0 ]; then
    t 0 "" "${sim[@]}" --plot p.png
    check '[ -s p.png ]' "the plot is written with no python3 in PATH"
else
    t 1 "--plot: not written: python3 was not found in PATH" "${sim[@]}" --plot p.png
fi
check '[ -z "$(ls -A | grep -v "^stderr$" | grep -v "^p.png$")" ]' "the plot's temporary files are removed"
case_env=(HINESBATCH_PYTHON=/nonexistent/python3)
t 1 "--plot: not written: /nonexistent/python3 was not found (set by HINESBATCH_PYTHON)" \
    "${sim[@]}" --plot p.png --csv t.csv
check '[ -s t.csv ] && [ ! -e p.png ]' "the traces are written, the plot is not"
check '[ -z "$(ls -A | grep -v -e "^stderr$" -e "^t.csv$")" ]' "the plot's temporary files are removed"
case_env=(HINESBATCH_PYTHON=no-such-python-hb)
t 1 "no-such-python-hb was not found in PATH (set by HINESBATCH_PYTHON)" \
    "${sim[@]}" --plot p.png
case_env=(HINESBATCH_DATA_DIR="$root/nodata")
t 1 "--plot: not written: the script '$root/nodata/scripts/plot_traces.py' is missing" \
    "${sim[@]}" --plot p.png
case_env=(HINESBATCH_DATA_DIR="$root/nodata")
t 1 "the default neuron '$root/nodata/morphologies/nrn__c91662.swc' cannot be read" \
    simulate --cells 1 --tstop 1
mkdir -p "$root/data/morphologies"
cp "$swc" "$root/data/morphologies/nrn__c91662.swc"
case_env=(HINESBATCH_DATA_DIR="$root/data")
stdout_to="$root/datadir.out" t 0 "" simulate --cells 1 --tstop 1 --record 0
check 'grep -q "250 compartments" "$root/datadir.out"' \
    "HINESBATCH_DATA_DIR's morphologies/ holds the default neuron"
py=${HB_PLOT_PYTHON:-$(command -v python3 || true)}
if [ -n "$py" ]; then
    # A matplotlib that cannot be imported, and a script that fails: each named.
    mkdir -p "$root/nompl/matplotlib" "$root/fakepy/matplotlib"
    echo 'raise ImportError("hidden by check_cli")' >"$root/nompl/matplotlib/__init__.py"
    echo 'raise SystemExit(5)' >"$root/fakepy/matplotlib/__init__.py"
    case_env=(HINESBATCH_PYTHON="$py" PYTHONPATH="$root/nompl")
    t 1 "--plot: not written: $py (set by HINESBATCH_PYTHON) cannot import matplotlib" \
        "${sim[@]}" --plot p.png
    case_env=(HINESBATCH_PYTHON="$py" PYTHONPATH="$root/fakepy")
    t 1 "plot_traces.py exited with status 5" "${sim[@]}" --plot p.png
else
    echo "skip no Python here: the matplotlib and status-N cases are not run"
fi

echo "== cell and channel parameters: ranges, each named"
t 2 "--scale: '0' is not a finite number in (0, 1e+09]" simulate --scale 0
t 2 "--scale: 'nan' is not a finite number" simulate --scale nan
t 2 "--ra: '0' is not a finite number in (0, 1e+12]" simulate --ra 0
t 2 "--cm: '-1' is not a finite number in (0, 1e+12]" simulate --cm -1
t 2 "--d-lambda: '0' is not a finite number in (0, 1e+06]" simulate --policy section --d-lambda 0
t 2 "--gnabar: '-0.1' is not a finite number in [0, 1000]" simulate --gnabar -0.1
t 2 "--gkbar: '1e4' is not a finite number in [0, 1000]" simulate --gkbar 1e4
t 2 "--gl: 'inf' is not a finite number" simulate --gl inf
t 2 "--el: '-2000' is not a finite number in [-1000, 1000]" simulate --el -2000
t 2 "--ena: 'x' is not a finite number" simulate --ena x
t 2 "--ek: '' is not a finite number" simulate --ek=
t 2 "--v-init: '1e999' is not a finite number" simulate --v-init 1e999
t 2 "--threshold: '5000' is not a finite number in [-1000, 1000]" simulate --threshold 5000
t 2 "this option takes no value: '--repair-radii=1'" simulate --repair-radii=1
t 2 "hinesbatch simulate: this option takes no value: '--reroot=yes'" simulate --reroot=yes
t 2 "--scale, --repair-radii, --reroot, --d-lambda and --neuron-conventions apply to SWC cells" simulate --synthetic 64 --scale 2
t 2 "--scale, --repair-radii, --reroot, --d-lambda and --neuron-conventions apply to SWC cells" simulate --synthetic 64 --reroot
t 2 "--scale, --repair-radii, --reroot, --d-lambda and --neuron-conventions apply to SWC cells" simulate --synthetic 64 --neuron-conventions
t 2 "hinesbatch simulate: --neuron-conventions needs --policy section (or no --policy)" simulate --policy sample --neuron-conventions
t 2 "hinesbatch simulate: this option takes no value: '--neuron-conventions=1'" simulate --neuron-conventions=1
t 2 "hinesbatch morph: --neuron-conventions needs --policy section (or no --policy)" morph "$swc" --policy sample --neuron-conventions
# NEURON's conventions: --nseg and --d-lambda need no --policy with it.
stdout_to=out.txt
t 0 "" morph "$swc" --neuron-conventions --nseg 1
check "grep -q 'conventions:     NEURON (Import3d); 4 zero-area nodes' out.txt && grep -q '^nodes:           14$' out.txt" "morph --neuron-conventions: n120_250 at nseg 1 is NEURON's 10 segments and 4 kept zero-area nodes"
t 0 "" "${sim[@]}" --neuron-conventions --d-lambda 0.1
t 2 "--d-lambda needs --policy section" simulate --d-lambda 0.1
t 2 "--d-lambda and --nseg N (N > 0) exclude each other" simulate --policy section --nseg 2 --d-lambda 0.1
# An nm-scaled file with a zero radius: refused as it is, simulated with the options.
awk '!/^#/ && NF >= 7 { d++; $3 *= 1000; $4 *= 1000; $5 *= 1000; $6 = (d == 5) ? 0 : $6 * 1000 } { print }' \
    "$swc" >"$root/nm.swc"
t 1 "radius" simulate --swc "$root/nm.swc" --cells 1 --tstop 1
stdout_to="$root/nm.out" t 0 "" simulate --swc "$root/nm.swc" --cells 2 --tstop 2 --scale 1e-3 \
    --repair-radii --record 1 --csv t.csv
check 'grep -q "rows 250," "$root/nm.out" && [ -s t.csv ]' \
    "--scale 1e-3 --repair-radii simulate the nm file morph accepts"
t 0 "" morph "$root/nm.swc" --scale 1e-3 --repair-radii
stdout_to="$root/params.out" t 0 "" simulate --swc "$swc" --cells 2 --tstop 20 --ra 100 --cm 0.9 \
    --gnabar 0.2 --gkbar 0.05 --gl 0.0001 --el -65 --ena 55 --ek -90 --v-init -70 --threshold 0 \
    --celsius 16 --spikes s.csv --iclamp 2,10,2 --record 0
check 'grep -q "threshold 0 mV" "$root/params.out" && [ -s s.csv ]' "the channel parameters are taken"
t 0 "" simulate --swc "$swc" --cells 1 --tstop 1 --policy section --d-lambda 0.05 --reroot --record 0
t 0 "" simulate --synthetic 64 --cells 2 --tstop 1 --ra 70 --cm 2 --record 0

echo "== model description files (--model): hostile files fail naming FILE:LINE:COL and the key"
# mf NAME TEXT: a model file in $root (cases run in their own directories).
mf() { printf '%s' "$2" >"$root/$1.json"; }
good_regions='"regions": [{"name": "all", "swc_type": 1, "cm": 1, "Ra": 100, "mechanisms": {"pas": {"g": 1e-4}, "hh": {}}},
 {"name": "dend", "swc_type": 3, "cm": 2, "Ra": 100, "mechanisms": {"pas": {"g": {"kind": "linear", "x": "distance_um", "a": 1e-4, "b": 1e-7}}}},
 {"name": "apical", "swc_type": 4, "cm": 2, "Ra": 100, "mechanisms": {"pas": {"g": {"kind": "exp", "x": "distance_normalized", "a": 1e-4, "b": 1e-5, "c": 1}, "e": {"kind": "window", "x": "distance_um", "from": 50, "to": 100, "inside": -60, "outside": -70}}}}]'
head="{\"format\": \"hinesbatch-model\", \"version\": 1, \"morphology\": \"$swc\", \"mechanisms\": {\"pas\": \"pas.mod\", \"hh\": \"hh.mod\"},"
mf good "$head \"celsius\": 6.3, \"v_init\": -65, \"discretization\": {\"kind\": \"odd_per_length\", \"length_um\": 20}, \"ions\": {\"k\": {\"e\": -80}}, $good_regions}"
stdout_to=good.out t 0 "" simulate --model "$root/good.json" --cells 2 --tstop 2
check 'grep -q "^model: .*good.json: regions all" good.out' "the model line names the regions"
# Probes: the traces CSV has a column per probe after the soma voltages, named
# cellN_compK_WHAT; hostile probes fail naming probes[i] and the cause.
probes='"probes": [{"cell": 1, "compartment": "soma", "what": "hh.m"}, {"what": "v", "location": {"swc_type": 4, "distance_um": 60}}, {"cell": 0, "compartment": "soma", "what": "ina"}, {"compartment": 5, "what": "ko"}]'
mf probes "$head \"ions\": {\"k\": {\"e\": -80}}, $good_regions, $probes}"
stdout_to=probes.out t 0 "" simulate --model "$root/probes.json" --cells 2 --tstop 2 --record 1 --csv tr.csv
check 'head -1 tr.csv | grep -Eq "^t_ms,cell0_soma_mV,cell1_comp[0-9]+_hh\.m,cell0_comp[0-9]+_v,cell0_comp[0-9]+_ina,cell0_comp5_ko$"' "the CSV names each probe's column"
check '[ "$(wc -l <tr.csv)" -eq 82 ] && [ "$(tail -1 tr.csv | tr , "\n" | wc -l)" -eq 6 ]' "81 samples of 5 traces"
check 'grep -q "^probes: 4 from" probes.out' "the run says how many probes it added"
mf pbad "$head $good_regions, \"probes\": [{\"what\": \"hh.nosuch\"}]}"
t 1 "probes[0]: hb_sim_probe: cell 0 compartment 0: hh has no recordable variable \"nosuch\"" simulate --model "$root/pbad.json" --cells 1 --tstop 1
mf pcell "$head $good_regions, \"probes\": [{\"cell\": 5, \"what\": \"v\"}]}"
t 1 "probes[0]: cell 5: the run has 2 cells" simulate --model "$root/pcell.json" --cells 2 --tstop 1
mf pcomp "$head $good_regions, \"probes\": [{\"compartment\": \"axon\", \"what\": \"v\"}]}"
t 1 "\"compartment\" must be an integer" simulate --model "$root/pcomp.json" --cells 1 --tstop 1
mf pboth "$head $good_regions, \"probes\": [{\"compartment\": 1, \"location\": {\"swc_type\": 3, \"distance_um\": 1}, \"what\": \"v\"}]}"
t 1 "not both" simulate --model "$root/pboth.json" --cells 1 --tstop 1
mf ploc "$head $good_regions, \"probes\": [{\"location\": {\"swc_type\": 7, \"distance_um\": 1}, \"what\": \"v\"}]}"
t 1 "no compartment of SWC type 7" simulate --model "$root/ploc.json" --cells 1 --tstop 1
mf pwhat "$head $good_regions, \"probes\": [{\"what\": 3}]}"
t 1 "probes[0]: needs \"what\"" simulate --model "$root/pwhat.json" --cells 1 --tstop 1
# Escapes that are valid JSON: a name with \u escapes (a surrogate pair), \/ and \n.
mf uni "$head \"name\": \"caf\\u00e9 \\ud83d\\ude00 a\\/b\\n\", \"description\": \"\", $good_regions}"
t 0 "" simulate --model "$root/uni.json" --cells 1 --tstop 1
t 2 "--model gives the cells" simulate --model "$root/good.json" --swc "$swc"
t 2 "--model gives the cells" simulate --model "$root/good.json" --gnabar 0.1
t 2 "--model gives the cells" simulate --model "$root/good.json" --reroot
t 2 "--seg-length needs --policy section" simulate --swc "$swc" --seg-length 40
t 2 "--seg-length: '-1'" simulate --swc "$swc" --policy section --seg-length -1
t 0 "" simulate --swc "$swc" --policy section --seg-length 40 --cells 1 --tstop 1
# Hay's rule on the L5PC under NEURON's conventions: NEURON's 1466 segments and
# 153 zero-area branch nodes.
stdout_to=seg.out t 0 "" morph "$src/data/morphologies/jaxley__morph_l5pc_with_axon.swc" --neuron-conventions --seg-length 40
check 'grep -q "^nodes: *1619" seg.out' "--seg-length 40: 1619 compartments (NEURON's 1466 + 153 zero-area nodes)"
t 2 "--nseg, --d-lambda and --seg-length exclude each other" morph "$swc" --seg-length 40 --d-lambda 0.1
t 2 "--seg-length needs --policy section" morph "$swc" --policy sample --seg-length 40
t 1 "--model: cannot open 'nosuch.json'" simulate --model nosuch.json
# A morphology path longer than the reader keeps is refused naming the key, not
# cut to its first 8191 characters ("///...$swc") and opened as that.
long_morph="$(printf '/%.0s' $(seq $((8191 - ${#swc}))))$swc.nope"
mf longpath "{\"format\": \"hinesbatch-model\", \"version\": 1, \"morphology\": \"$long_morph\", \"mechanisms\": {\"pas\": \"pas.mod\", \"hh\": \"hh.mod\"}, $good_regions}"
t 1 "longpath.json:1:60: morphology: a path of 8196 characters (with the file's folder), more than 8191" \
    simulate --model "$root/longpath.json" --cells 1 --tstop 1
mf trunc '{"format": "hinesbatch-model", "version": 1,'
t 1 "trunc.json:1:45: expected a key (a string) in an object" simulate --model "$root/trunc.json"
mf empty ''
t 1 "empty.json:1:1: unexpected end of input" simulate --model "$root/empty.json"
mf vstr "$head \"version\": \"1\"}"
t 1 "duplicate key \"version\"" simulate --model "$root/vstr.json"
mf vtype '{"format": "hinesbatch-model", "version": "1"}'
t 1 "vtype.json:1:43: version: is a string, expected a number" simulate --model "$root/vtype.json"
mf v2 '{"format": "hinesbatch-model", "version": 2}'
t 1 "version: 2: this reader knows version 1" simulate --model "$root/v2.json"
mf fmt '{"format": "other", "version": 1}'
t 1 "format: must be \"hinesbatch-model\"" simulate --model "$root/fmt.json"
mf unknown "$head \"bogus\": 1, $good_regions}"
t 1 "(top level): unknown key \"bogus\"" simulate --model "$root/unknown.json"
mf nan "$head \"celsius\": NaN, $good_regions}"
t 1 "NaN and Infinity are not JSON" simulate --model "$root/nan.json"
mf huge "$head \"celsius\": 1e999, $good_regions}"
t 1 "number 1e999 is out of range" simulate --model "$root/huge.json"
mf hot "$head \"celsius\": 5000, $good_regions}"
t 1 "celsius: 5000 is outside" simulate --model "$root/hot.json"
mf deep "$(printf '[%.0s' $(seq 100))"
t 1 "nesting deeper than 64" simulate --model "$root/deep.json"
mf ctrl "$(printf '{"format": "a\tb"}')"
t 1 "control character 0x09" simulate --model "$root/ctrl.json"
mf esc '{"format": "\q"}'
t 1 "esc.json:1:14: bad escape" simulate --model "$root/esc.json"
mf surr '{"format": "\ud800x"}'
t 1 "lone UTF-16 high surrogate" simulate --model "$root/surr.json"
mf trail '{"format": "hinesbatch-model"} x'
t 1 "content after the top-level value" simulate --model "$root/trail.json"
mf num '{"version": 01}'
t 1 "expected ',' or '}' in an object" simulate --model "$root/num.json"
mf missing "{\"format\": \"hinesbatch-model\", \"version\": 1, \"morphology\": \"$swc\", \"mechanisms\": {\"nosuch_mech\": \"x.mod\", \"pas\": \"p.mod\"}, $good_regions}"
t 1 "not in this build's catalogue: nosuch_mech (configure with -DHINESBATCH_MECHANISMS" simulate --model "$root/missing.json"
mf ra "$head \"regions\": [{\"name\": \"soma\", \"swc_type\": 1, \"cm\": 1, \"Ra\": 100, \"mechanisms\": {}}, {\"name\": \"dend\", \"swc_type\": 3, \"cm\": 1, \"Ra\": 150, \"mechanisms\": {}}]}"
t 1 "regions[1]: Ra 150 in region \"dend\" differs from Ra 100 in region \"soma\"" simulate --model "$root/ra.json"
mf param "$head \"regions\": [{\"name\": \"soma\", \"swc_type\": 1, \"cm\": 1, \"Ra\": 100, \"mechanisms\": {\"hh\": {\"gbogus\": 1}}}]}"
t 1 "regions[0].mechanisms.hh.gbogus: hh has no PARAMETER \"gbogus\"" simulate --model "$root/param.json"
mf notlisted "$head \"regions\": [{\"name\": \"soma\", \"swc_type\": 1, \"cm\": 1, \"Ra\": 100, \"mechanisms\": {\"ExpSyn\": {}}}]}"
t 1 "mechanism \"ExpSyn\" is not in the file's \"mechanisms\"" simulate --model "$root/notlisted.json"
mf kind "$head \"regions\": [{\"name\": \"soma\", \"swc_type\": 1, \"cm\": 1, \"Ra\": 100, \"mechanisms\": {\"pas\": {\"g\": {\"kind\": \"sigmoid\", \"x\": \"distance_um\"}}}}]}"
t 1 "kind \"sigmoid\" is not linear, exp or window" simulate --model "$root/kind.json"
mf win "$head \"regions\": [{\"name\": \"soma\", \"swc_type\": 1, \"cm\": 1, \"Ra\": 100, \"mechanisms\": {\"pas\": {\"g\": {\"kind\": \"window\", \"x\": \"distance_um\", \"from\": 1, \"to\": 2, \"inside\": 1}}}}]}"
t 1 "regions[0].mechanisms.pas.g.outside: missing" simulate --model "$root/win.json"
mf notype "$head \"regions\": [{\"name\": \"soma\", \"swc_type\": 1, \"cm\": 1, \"Ra\": 100, \"mechanisms\": {\"pas\": {}}}]}"
t 1 "regions: no region for SWC type" simulate --model "$root/notype.json" --cells 1 --tstop 1
mf ion "$head \"ions\": {\"na\": {\"e\": \"nernst\", \"nai0\": -1}}, $good_regions}"
t 1 "ions.na.nai0: -1 is outside" simulate --model "$root/ion.json"
mf cm "$head \"regions\": [{\"name\": \"soma\", \"swc_type\": 1, \"cm\": -1, \"Ra\": 100, \"mechanisms\": {}}]}"
t 1 "regions[0].cm: -1 is outside" simulate --model "$root/cm.json"

echo "== command lines that must still work"
t 0 "" solve --systems 8 --rows 16 --reps 1 --seed 1
t 0 "" solve --systems=8 --rows=16 --reps=1 --layout interleaved --precision float --multi
t 0 "" solve --systems 8 --rows 16 --reps 1 --layout block-shared
t 0 "" morph "$swc" --policy section --nseg 2 --reroot --repair-radii
t 0 "" morph --d-lambda 0.1 --ra 100 --cm 1 --scale 1 "$swc"
t 0 "" "${sim[@]}" --csv t.csv --spikes s.csv --dump-cell d.csv --iclamp 0.5,1,-0.5 --record 2 \
    --layout flat --precision float --amp-spread 0 --celsius 20 --dt 0.05 --no-split
check '[ -s t.csv ] && [ -s s.csv ] && [ -s d.csv ]' "traces, spikes and cell dump written"
t 0 "" "${sim[@]}" --policy section --nseg 0 --hh-everywhere --seed 18446744073709551615
t 0 "" simulate --synthetic 512 --mix --cells 3 --tstop 1 --seed 7
t 0 "" bench --backend serial --systems 4 --rows 8,16-32 --layout interleaved/skip,block:16/compute \
    --precision double,float --max-reps 3 --target-s 0.01 --csv b.csv
check '[ "$(wc -l <b.csv)" -ge 5 ]' "the bench CSV has its rows"
t 0 "" bench --backend serial --kind hines --morphology levels:64:2,random:3,branchy:50:10:2 \
    --strategy per-system,fine-tree --systems 4 --max-reps 3 --target-s 0.01
# Thomas points take per-system and cooperative (not offered on the serial
# backend, as on any host backend: reported, not a failure; serial is in every build).
t 0 "" bench --backend serial --kind thomas --strategy per-system,cooperative --systems 2 \
    --rows 100 --max-reps 3 --target-s 0.01
t 0 "" bench --backend serial --kind thomas --strategy per-system,cooperative --systems 3 \
    --rows 64 --group-size 8 --max-reps 3 --target-s 0.01

# cardiac (the built-in Beeler-Reuter 1977): cells, a fiber, and refusals.
t 0 "" cardiac --list
t 0 "" cardiac --backend serial --cells 3 --duration 20 --record 0,2 --record-every 5 \
    --param-range membrane_i_stim_amplitude=-25:-30 --csv ap.csv
check '[ "$(wc -l <ap.csv)" -eq 401 ]' "cardiac: 400 recorded rows and the header"
t 0 "" cardiac --backend serial --precision float --cells 40 --fiber 40 --duration 30 \
    --activation act.csv
check '[ "$(wc -l <act.csv)" -eq 41 ]' "cardiac: every node's activation time"
t 2 "hinesbatch cardiac: --model: hb_cardiac_model_find: name = \"bogus\" is not in the cardiac catalogue" \
    cardiac --model bogus
t 2 "hinesbatch cardiac: --param: hb_cardiac_set_param: name = \"nope\"" cardiac --param nope=1
t 2 "hinesbatch cardiac: --stim-*: hb_cardiac_set_protocol: start = 0.005 ms is not a whole number" \
    cardiac --stim-start 0.005
t 2 "hinesbatch cardiac: --fiber: hb_cardiac_set_fiber: nnodes = 3" cardiac --cells 4 --fiber 3
t 2 "hinesbatch cardiac: --record: '7' is not an integer in [0, 1]" cardiac --cells 2 --record 7
t 2 "hinesbatch cardiac: --cells: '0' is not an integer" cardiac --cells 0

echo "check_cli: $cases cases, $fails failed${mode:+ ($mode)}"
[ "$fails" -eq 0 ]
