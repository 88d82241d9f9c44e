: gclamp.mod: a conductance that pulls each compartment toward a command voltage, written for
: hinesbatch's tests. Its SOLVE, a PROCEDURE under METHOD after_cvode, computes the current
: again after each step, as NEURON's clamps do, so what NEURON records of i is its value at
: the new v.
NEURON {
    SUFFIX gclamp
    NONSPECIFIC_CURRENT i
    RANGE gbar, vcmd
}

PARAMETER {
    gbar = 0.002 (S/cm2)
    vcmd = -40 (mV)
}

ASSIGNED {
    v (mV)
    i (mA/cm2)
}

BREAKPOINT {
    SOLVE settle METHOD after_cvode
    i = gbar * (v - vcmd)
}

PROCEDURE settle() {
    i = gbar * (v - vcmd)
}
