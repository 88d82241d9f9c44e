TITLE pas.mod: passive membrane, a leak conductance with a fixed reversal potential
COMMENT
Written for hinesbatch: i = g (v - e), the ohmic leak of any passive cable.
ENDCOMMENT

NEURON {
    SUFFIX pas
    NONSPECIFIC_CURRENT i
    RANGE g, e
}

UNITS {
    (mA) = (milliamp)
    (mV) = (millivolt)
    (S) = (siemens)
}

PARAMETER {
    g = 0.001 (S/cm2) <0, 1e9>
    e = -70 (mV)
}

ASSIGNED {
    v (mV)
    i (mA/cm2)
}

BREAKPOINT {
    i = g * (v - e)
}
