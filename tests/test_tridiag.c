/* test_tridiag.c: tridiagonal batches in every layout, via plans and one-shot calls, checked by residual and against the serial oracle (the runner of hb_oracle_runner.c). */
#include "hb_oracle_runner.h"

/* Batch shapes: uniform and variable, sizes 1..4000. */
static const hb_oracle_shape shapes[] = {
    {"one system of 4000 rows", 1, 4000, 4000, 0},
    {"300 systems of 1 row", 300, 1, 1, 0},
    {"200 systems of 37 rows", 200, 37, 37, 0},
    {"24 systems of 1..4000 rows", 24, 1, 4000, 0},
    {"500 systems of 1..64 rows", 500, 1, 64, 0},
    {"77 systems of 2..300 rows", 77, 2, 300, 0},
};
/* The variable shapes are also run scaled near underflow and overflow. */
static const int scaled[] = {3, 4, 5};

int main(void)
{
    return hb_oracle_suite("test_tridiag", &hb_oracle_tridiag, shapes,
                           (int)(sizeof shapes / sizeof shapes[0]), scaled,
                           (int)(sizeof scaled / sizeof scaled[0]));
}
