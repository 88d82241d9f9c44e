/* test_hines.c: Hines batches (mono and multi morphology) in every layout, via plans and one-shot calls, checked by residual and against the serial oracle (the runner of hb_oracle_runner.c). */
#include "hb_oracle_runner.h"

/* Batch shapes. A uniform batch of one tree kind is mono-morphology (one tree
 * for every system: plans store it once, and the uniform constructor
 * applies); HB_TREE_KINDS draws a random kind per system. */
static const hb_oracle_shape shapes[] = {
    {"mono chain 32x300", 32, 300, 300, HB_TREE_CHAIN},
    {"mono star 32x300", 32, 300, 300, HB_TREE_STAR},
    {"mono binary 32x255", 32, 255, 255, HB_TREE_BINARY},
    {"mono random 32x300", 32, 300, 300, HB_TREE_RANDOM},
    {"mono neuron 3x4000", 3, 4000, 4000, HB_TREE_NEURON},
    {"mono 300x1", 300, 1, 1, HB_TREE_CHAIN},
    {"multi 50x200 mixed trees", 50, 200, 200, HB_TREE_KINDS},
    {"multi 24 of 1..4000 rows", 24, 1, 4000, HB_TREE_KINDS},
    {"multi 300 of 1..64 rows", 300, 1, 64, HB_TREE_KINDS},
};
/* Also run scaled near underflow and overflow: random and neuron trees of one
 * shape, and the variable multi-morphology batches. */
static const int scaled[] = {3, 4, 7, 8};

int main(void)
{
    return hb_oracle_suite("test_hines", &hb_oracle_hines, shapes,
                           (int)(sizeof shapes / sizeof shapes[0]), scaled,
                           (int)(sizeof scaled / sizeof scaled[0]));
}
