#!/bin/sh
# legacy-cuda.sh: installs CUDA 11.8 from Debian 12 non-free and builds the CUDA backend for sm_37 (K80) and sm_60 (P100).
# Usage: ci/legacy-cuda.sh [install|build|all]   (default all; run as root on Debian 12).
# The toolkit goes where Debian puts it (/usr/bin/nvcc, /usr/include,
# /usr/lib/x86_64-linux-gnu); a CUDA 12/13 toolkit under /usr/local/cuda is
# left alone, and this build names /usr/bin/nvcc explicitly.
set -eu
mode=${1:-all}
src=$(cd "$(dirname "$0")/.." && pwd)
build=${HB_LEGACY_BUILD_DIR:-$src/build-legacy-cuda}

if [ "$mode" = install ] || [ "$mode" = all ]; then
    # non-free in its own sources file, so the main sources file stays as it was.
    cat >/etc/apt/sources.list.d/hinesbatch-nonfree.sources <<'SRC'
Types: deb
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: contrib non-free
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
    apt-get update -q
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
        nvidia-cuda-toolkit nvidia-cuda-toolkit-gcc
    echo "legacy-cuda: installed: $(/usr/bin/nvcc --version | tail -2 | head -1)"
    dpkg -L nvidia-cuda-toolkit | grep -E '^/usr/(bin|lib)/' | head -20 || true
fi

if [ "$mode" = build ] || [ "$mode" = all ]; then
    # CUDA 11.8 accepts host compilers up to GCC 11: Debian's cuda-g++ wrapper
    # (nvidia-cuda-toolkit-gcc) points at g++-11.
    host=$(command -v cuda-g++ || command -v g++-11 || echo g++)
    # Debian's nvcc finds ptxas, fatbinary and nvlink on PATH: keep a newer
    # toolkit's bin (e.g. /usr/local/cuda/bin) out of it.
    PATH=/usr/lib/nvidia-cuda-toolkit/bin:/usr/sbin:/usr/bin:/sbin:/bin
    export PATH
    rm -rf "$build"
    # Debian's 11.8 headers live in /usr/include, which the host compiler
    # searches after /usr/local/include: where a newer toolkit's headers are
    # linked into /usr/local/include (as on this project's CI image), they
    # would win. A directory of links to the 11.8 headers, passed with -I,
    # puts them first.
    inc="$build/cuda-11.8-include"
    mkdir -p "$inc"
    for pkg in nvidia-cuda-dev libcub-dev libthrust-dev libcu++-dev; do
        dpkg -L "$pkg" 2>/dev/null | grep -E '^/usr/include/[^/]+$' | while read -r f; do
            ln -sf "$f" "$inc/"
        done
    done
    cmake -S "$src" -B "$build" -DHINESBATCH_WITH_CUDA=ON -DHINESBATCH_WITH_OPENCL=OFF \
        -DCMAKE_CUDA_COMPILER=/usr/bin/nvcc -DCMAKE_CUDA_HOST_COMPILER="$host" \
        -DCMAKE_CUDA_FLAGS="-I$inc" \
        -DCUDAToolkit_ROOT=/usr -DCMAKE_CUDA_ARCHITECTURES="37;60"
    cmake --build "$build" -j"$(nproc)"
    # Both architectures must be in the library's fat binary.
    cuobj=$(command -v cuobjdump || echo /usr/bin/cuobjdump)
    archs=$("$cuobj" --list-elf "$build/libhinesbatch.so" | sed -n 's/.*\(sm_[0-9]*\).*/\1/p' | sort -u | tr '\n' ' ')
    echo "legacy-cuda: nvcc $(/usr/bin/nvcc --version | sed -n 's/.*release \([0-9.]*\).*/\1/p'), host $host, SASS in libhinesbatch.so: $archs"
    case "$archs" in *sm_37*sm_60*) echo "legacy-cuda: OK" ;; *) echo "legacy-cuda: FAILED: missing an architecture"; exit 1 ;; esac
fi
