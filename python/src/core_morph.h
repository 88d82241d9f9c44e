// core_morph.h: the morphology and cell wrappers of hinesbatch._core, shared with the simulation bindings.
#pragma once

#include "core.h"

namespace hbpy {

struct Morph {
    hb_morph *morph = nullptr;
    explicit Morph(hb_morph *m) : morph(m) {}
    Morph(const Morph &) = delete;
    Morph &operator=(const Morph &) = delete;
    ~Morph();
};

struct Cell {
    hb_morph_cell *cell = nullptr;
    explicit Cell(hb_morph_cell *c) : cell(c) {}
    Cell(const Cell &) = delete;
    Cell &operator=(const Cell &) = delete;
    ~Cell();
};

} // namespace hbpy
