/* model_file.h: model description files (docs/mechanisms.md, "Model description files") read for `hinesbatch simulate --model`. */
#ifndef HB_APPS_MODEL_FILE_H
#define HB_APPS_MODEL_FILE_H

#include "hinesbatch_sim.h"
#include "json.h"

typedef struct {
    char        path[4096];
    char        morphology[8192]; /* resolved against the file's folder           */
    double      celsius, v_init;  /* NAN where the file has none                   */
    double      seg_length;       /* odd_per_length's length_um; 0: none           */
    double      ra;               /* every region's Ra (they must agree)           */
    json_value *root;
} model_file;

/* Reads and checks the whole file (format, keys, types, values, mechanisms
 * and parameters against the compiled catalogue, Ra agreement); 0 after a
 * message on stderr naming FILE:LINE:COL and the key. */
int model_file_load(const char *cmd, const char *path, model_file *mf);
void model_file_free(model_file *mf);

/* The file's regions, ions and capacitances on sim, whose cells are all
 * `cell` (the file's morphology); 0 after a message. Prints one line of
 * what it applied. */
int model_file_apply(const char *cmd, const model_file *mf, hb_sim *sim,
                     const hb_morph_cell *cell);

/* The file's probes on sim (after the recordings: their traces follow);
 * 0 after a message naming the probe. */
int model_file_probes(const char *cmd, const model_file *mf, hb_sim *sim,
                      const hb_morph_cell *cell, int64_t ncells);

#endif
