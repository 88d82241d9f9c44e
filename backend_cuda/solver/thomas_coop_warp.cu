/* thomas_coop_warp.cu: the register cooperative Thomas (CUDA only: warp shuffles): W lanes of a warp per system of up to W x M rows, M consecutive rows per lane held in registers, each lane's chunk reduced by Thomas and the W chunks' interface system solved by PCR over shuffles. */
#include "cuda_backend.h"

namespace {

constexpr unsigned kAll = 0xffffffffu;
constexpr int kWarps = HB_COOP_WARP_WARPS;

/* Lanes l of each group of M (l0 = lane % M) hold, in register k, element
 * (k, l0) of an M x M tile; afterwards element (l0, k): log2(M) exchange
 * stages, stage s swapping the tile's entries whose row and column bit s
 * differ (lanes l0 and l0 ^ s, registers k and k ^ s). Indices are
 * compile-time, so the registers stay registers (no local memory). The
 * transpose is its own inverse. */
template <int M, typename T> __device__ __forceinline__ void tile_transpose(T (&r)[M], int l0)
{
#pragma unroll
    for (int s = M / 2; s >= 1; s /= 2) {
        const bool hi = (l0 & s) != 0;
#pragma unroll
        for (int k0 = 0; k0 < M; ++k0) {
            if (k0 & s)
                continue;
            const int k1 = k0 | s;
            const T got = __shfl_xor_sync(kAll, hi ? r[k0] : r[k1], s);
            if (hi)
                r[k0] = got;
            else
                r[k1] = got;
        }
    }
}

/* Register k of lane g*M + l0 (before the transpose): the warp's padded row
 * (g*M + k)*M + l0, in slot (g*M + k) / W at row i; the slot's offset o and
 * size n come from the lane that loaded them (lane j holds slot j's). */
struct hb_warp_row {
    int64_t o;
    int n, i;
};
template <int M>
__device__ __forceinline__ hb_warp_row warp_row(int k, int g, int l0, int lw_log2, int64_t my_o,
                                                int my_n)
{
    const int q = g * M + k, j = q >> lw_log2;
    hb_warp_row r;
    r.o = __shfl_sync(kAll, my_o, j);
    r.n = __shfl_sync(kAll, my_n, j);
    r.i = (q & ((1 << lw_log2) - 1)) * M + l0;
    return r;
}

/* A warp solves 32 / W consecutive slots, W = 1 << lw_log2 lanes each
 * (rows[t] <= W x M, the plan checks). Lane l owns rows (l % W)*M ..
 * (l % W)*M + M-1 of slot l / W, padded to W x M rows with identity rows
 * (a = c = d = 0, b = 1); a of row 0 and c of row n-1 are taken as 0, as
 * every solver of the library does.
 *
 * 1. Coalesced loads: register k of lane l = g*M + l0 reads padded row
 *    (g*M + k)*M + l0 of the warp (a group of M lanes reads M consecutive
 *    rows), then an in-register transpose gives each lane its own M rows.
 * 2. Forward over the lane's rows as C sub-chunks of M / C rows (C = 2
 *    from 16 rows per lane: two independent chains of reciprocals, half as
 *    long), each with the previous sub-chunk's last unknown p left
 *    symbolic: x_i + gam_i x_{i+1} = del_i - alp_i p.
 * 3. Backward: x_i = e_i - g_i p - h_i X for every row of a sub-chunk (X
 *    its last unknown), from e = g = 0, h = -1 at its last row.
 * 4. The sub-chunks' last rows, with the next sub-chunk's first row put in,
 *    couple the X's; with C = 2 the first X of each lane is put into the
 *    second's row, leaving one row per lane in its last unknown x_L: a
 *    W-row tridiagonal system per slot, solved by PCR in log2(W) shuffle
 *    steps within each segment of W lanes.
 * 5. x_i = e_i - g_i p - h_i x_L, transposed back and stored coalesced.
 * Global traffic: a, b, c, d read once, x written once. No pivoting: for
 * the diagonally dominant systems Thomas itself is for. */
template <typename T, int M, int C>
__global__ void __launch_bounds__(kWarps * 32)
    thomas_coop_warp(int64_t nslots, int lw_log2, const int64_t *__restrict__ base,
                     const int64_t *__restrict__ rows, const T *__restrict__ a,
                     const T *__restrict__ b, const T *__restrict__ cc, T *d)
{
    const int lane = (int)(threadIdx.x & 31);
    const int W = 1 << lw_log2, per = 32 >> lw_log2;
    const int64_t t0 = ((int64_t)blockIdx.x * kWarps + (int64_t)(threadIdx.x >> 5)) * per;
    if (t0 >= nslots)
        return; /* the whole warp: no shuffle partner is missing */
    /* Lane j < per holds slot t0 + j's offset and size (a slot past the
     * batch has none); register k's slot is (g*M + k) >> lw_log2. */
    int64_t my_o = 0;
    int my_n = 0;
    if (lane < per && t0 + lane < nslots) {
        my_o = base[t0 + lane];
        my_n = (int)rows[t0 + lane];
    }
    const int l0 = lane % M, g = lane / M;
    constexpr int H = M / C;
    static_assert((C == 1 || C == 2) && H * C == M, "1 or 2 sub-chunks per lane");

    /* 1. Load (all 4M values issued before any is used), transpose. */
    T ra[M], rb[M], rc[M], rd[M];
#pragma unroll
    for (int k = 0; k < M; ++k) {
        const hb_warp_row w = warp_row<M>(k, g, l0, lw_log2, my_o, my_n);
        const int64_t o = w.o;
        const int i = w.i, n = w.n;
        const bool in = i < n;
        ra[k] = in && i > 0 ? a[o + i] : (T)0;
        rb[k] = in ? b[o + i] : (T)1;
        rc[k] = in && i < n - 1 ? cc[o + i] : (T)0;
        rd[k] = in ? d[o + i] : (T)0;
    }
    tile_transpose<M>(ra, l0);
    tile_transpose<M>(rb, l0);
    tile_transpose<M>(rc, l0);
    tile_transpose<M>(rd, l0);

    /* 2. Forward over each of the C sub-chunks of H rows, side by side (C
     * independent chains: the latency of one reciprocal after another is
     * what bounds a lane, C = 2 halves the chain), with the previous
     * sub-chunk's last unknown left symbolic: alp in ra, gam in rc, del in
     * rd. */
#pragma unroll
    for (int q = 0; q < C; ++q) {
        const T r = (T)1 / rb[q * H];
        ra[q * H] *= r;
        rc[q * H] *= r;
        rd[q * H] *= r;
    }
#pragma unroll
    for (int j = 1; j < H; ++j) {
#pragma unroll
        for (int q = 0; q < C; ++q) {
            const int x = q * H + j;
            const T aj = ra[x];
            const T r = (T)1 / (rb[x] - aj * rc[x - 1]);
            ra[x] = -aj * ra[x - 1] * r;
            rc[x] *= r;
            rd[x] = (rd[x] - aj * rd[x - 1]) * r;
        }
    }
    T alpL[C], gamL[C], delL[C];
#pragma unroll
    for (int q = 0; q < C; ++q) {
        alpL[q] = ra[q * H + H - 1];
        gamL[q] = rc[q * H + H - 1];
        delL[q] = rd[q * H + H - 1];
    }

    /* 3. Backward, in place: e in rd, g in ra, h in rc (every row but each
     * sub-chunk's last): x_i = e_i - g_i p_q - h_i X_q, p_q the previous
     * sub-chunk's last unknown, X_q this one's. */
    T e[C], gg[C], h[C];
#pragma unroll
    for (int q = 0; q < C; ++q) {
        e[q] = gg[q] = (T)0;
        h[q] = (T)-1;
    }
#pragma unroll
    for (int j = H - 2; j >= 0; --j) {
#pragma unroll
        for (int q = 0; q < C; ++q) {
            const int x = q * H + j;
            e[q] = rd[x] - rc[x] * e[q];
            gg[q] = ra[x] - rc[x] * gg[q];
            h[q] = -rc[x] * h[q];
            rd[x] = e[q];
            ra[x] = gg[q];
            rc[x] = h[q];
        }
    }

    /* 4. The interface system. Sub-chunk q's last row with the next
     * sub-chunk's first put in: A_q X_{q-1} + B_q X_q + C_q X_{q+1} = D_q
     * (X_{-1}: the previous lane's last X, X_C: the next lane's X_0). With
     * C = 2, X_0 = d0 - a0 X_{-1} - c0 X_1 (its row over B_0) is put into
     * row 1, and the next lane's X_0 likewise (its X_{-1} being this lane's
     * X_1): one row per lane in X_{C-1} = x_L. A segment's last lane has
     * gam_L = 0 (c of row n-1 and of padding rows is 0), its first alp = 0
     * (a of row 0 is): the segments do not couple. */
    const int seg = lane & (W - 1);
    const T e1 = __shfl_down_sync(kAll, e[0], 1, W), g1 = __shfl_down_sync(kAll, gg[0], 1, W),
            h1 = __shfl_down_sync(kAll, h[0], 1, W);
    T A = alpL[C - 1], B = (T)1 - gamL[C - 1] * g1, C_ = -gamL[C - 1] * h1,
      D = delL[C - 1] - gamL[C - 1] * e1;
    T a0 = (T)0, c0 = (T)0, d0 = (T)0;
    if (C == 2) {
        const T r = (T)1 / ((T)1 - gamL[0] * gg[C - 1]);
        a0 = alpL[0] * r;
        c0 = -gamL[0] * h[C - 1] * r;
        d0 = (delL[0] - gamL[0] * e[C - 1]) * r;
        const T a0n = __shfl_down_sync(kAll, a0, 1, W), c0n = __shfl_down_sync(kAll, c0, 1, W),
                d0n = __shfl_down_sync(kAll, d0, 1, W);
        const T A1 = A;
        A = -A1 * a0;
        B = B - A1 * c0 - C_ * a0n;
        D = D - A1 * d0 - C_ * d0n;
        C_ = -C_ * c0n;
    }
    for (int s = 1; s < W; s *= 2) {
        T Am = __shfl_up_sync(kAll, A, s, W), Bm = __shfl_up_sync(kAll, B, s, W),
          Cm = __shfl_up_sync(kAll, C_, s, W), Dm = __shfl_up_sync(kAll, D, s, W);
        T Ap = __shfl_down_sync(kAll, A, s, W), Bp = __shfl_down_sync(kAll, B, s, W),
          Cp = __shfl_down_sync(kAll, C_, s, W), Dp = __shfl_down_sync(kAll, D, s, W);
        if (seg < s) { /* no row above: an identity row */
            Am = Cm = Dm = (T)0;
            Bm = (T)1;
        }
        if (seg + s >= W) {
            Ap = Cp = Dp = (T)0;
            Bp = (T)1;
        }
        const T k1 = A / Bm, k2 = C_ / Bp;
        A = -Am * k1;
        C_ = -Cp * k2;
        B = B - Cm * k1 - Ap * k2;
        D = D - Dm * k1 - Dp * k2;
    }
    const T xL = D / B;

    /* 5. The rows from p and the X's, transposed back, stored. */
    T p = __shfl_up_sync(kAll, xL, 1, W);
    if (seg == 0)
        p = (T)0;
    T X[C];
    X[C - 1] = xL;
    if (C == 2)
        X[0] = d0 - a0 * p - c0 * xL;
#pragma unroll
    for (int q = 0; q < C; ++q) {
        const T pq = q == 0 ? p : X[q - 1];
#pragma unroll
        for (int j = 0; j < H - 1; ++j)
            rd[q * H + j] = rd[q * H + j] - ra[q * H + j] * pq - rc[q * H + j] * X[q];
        rd[q * H + H - 1] = X[q];
    }
    tile_transpose<M>(rd, l0);
#pragma unroll
    for (int k = 0; k < M; ++k) {
        const hb_warp_row w = warp_row<M>(k, g, l0, lw_log2, my_o, my_n);
        if (w.i < w.n)
            d[w.o + w.i] = rd[k];
    }
}

template <typename T, int M>
void go(unsigned grid, cudaStream_t s, const hb_layout_dev *lay, int lw_log2, const T *a,
        const T *b, const T *c, T *d)
{
    thomas_coop_warp<T, M, (M >= 16 ? 2 : 1)><<<grid, kWarps * 32, 0, s>>>(
        lay->nslots, lw_log2, hb__dev(lay->base), hb__dev(lay->rows), a, b, c, d);
}

/* 32 rows per lane: float only (32 doubles per lane is past the registers;
 * the plan never asks for it). */
bool go32(unsigned grid, cudaStream_t s, const hb_layout_dev *lay, int lw_log2, const float *a,
          const float *b, const float *c, float *d)
{
    go<float, 32>(grid, s, lay, lw_log2, a, b, c, d);
    return true;
}
bool go32(unsigned, cudaStream_t, const hb_layout_dev *, int, const double *, const double *,
          const double *, double *)
{
    return false;
}

template <typename T>
hb_status launch(hb_context *ctx, void *stream, hb_precision p, const hb_layout_dev *lay,
                 const T *a, const T *b, const T *c, T *d)
{
    /* W = coop_group lanes per slot, a power of two up to 32 (checked before
     * anything is launched); 32 / W slots per warp, kWarps warps per block. */
    const int w = lay->coop_group;
    int lw_log2 = 0;
    while (lw_log2 < 5 && (1 << lw_log2) < w)
        ++lw_log2;
    bool ok = w == (1 << lw_log2);
    if (ok) {
        const int per = 32 >> lw_log2;
        const unsigned grid = hb__cuda_blocks((lay->nslots + per - 1) / per, kWarps);
        const cudaStream_t s = hb__cuda_stream(ctx, stream);
        switch (lay->coop_rows) {
        case 8: go<T, 8>(grid, s, lay, lw_log2, a, b, c, d); break;
        case 16: go<T, 16>(grid, s, lay, lw_log2, a, b, c, d); break;
        case 32: ok = go32(grid, s, lay, lw_log2, a, b, c, d); break;
        default: ok = false;
        }
    }
    if (!ok)
        return hb__error(HB_ERR_BACKEND,
                         "CUDA: hb_thomas_coop_warp has no variant of %d rows x %d lanes in %s",
                         (int)lay->coop_rows, (int)lay->coop_group,
                         p == HB_DOUBLE ? "double" : "float");
    return hb__cuda_launched("hb_thomas_coop_warp", p, lay->nslots);
}

} // namespace

static_assert(HB_COOP_WARP_MAX_ROWS(8) == 32 * 16 && HB_COOP_WARP_MAX_ROWS(4) == 32 * 32,
              "hb_backend.h's warp limits are the variants compiled here");

/* lay->coop_rows = M rows per lane (8, 16, or 32 in float), lay->coop_group
 * = W lanes per slot (a power of two up to 32), 32 / W slots per warp,
 * kWarps warps per block; cw unused (every row stays in registers). */
hb_status hb__cuda_thomas_coop_warp(hb_context *ctx, void *stream, hb_precision p,
                                    const hb_layout_dev *lay, hb_buffer *a, hb_buffer *b,
                                    hb_buffer *c, hb_buffer *cw, hb_buffer *d)
{
    (void)cw;
    if (lay->nslots <= 0)
        return HB_SUCCESS;
    HB_FORWARD(hb__cuda_use(ctx));
    if (p == HB_DOUBLE)
        return launch<double>(ctx, stream, p, lay, hb__dev(a), hb__dev(b), hb__dev(c), hb__dev(d));
    return launch<float>(ctx, stream, p, lay, hb__dev(a), hb__dev(b), hb__dev(c), hb__dev(d));
}
