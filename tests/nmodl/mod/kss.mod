: kss.mod: a nonlinear KINETIC scheme (a buffer binding a ligand, both STATEs, with conservation) started at its steady state by SOLVE ... STEADYSTATE sparse in INITIAL, for the translator tests and the NEURON comparison
NEURON {
    SUFFIX kss
    NONSPECIFIC_CURRENT i
    RANGE gmax, kon, koff, btot, ltot
}
UNITS { (mA) = (milliamp) (mV) = (millivolt) (mM) = (milli/liter) }
PARAMETER {
    gmax = 0.002 (S/cm2)
    kon = 50 (/mM-ms)
    koff = 0.2 (/ms)
    btot = 0.04 (mM)
    ltot = 0.01 (mM)
    erev = -30 (mV)
}
ASSIGNED { v (mV) i (mA/cm2) kv (/ms) }
STATE { lig (mM) buf (mM) bound (mM) }
INITIAL {
    lig = ltot
    buf = btot
    bound = 0
    SOLVE bind STEADYSTATE sparse
}
BREAKPOINT {
    SOLVE bind METHOD sparse
    i = gmax*bound/btot*(v - erev)
}
KINETIC bind {
    kv = koff*exp(-v/40)
    ~ lig + buf <-> bound (kon, kv)
    CONSERVE buf + bound = btot
    CONSERVE lig + bound = ltot
}
