: karea.mod: a fixed number of pumps per compartment whose current density follows the compartment's membrane area (NMODL's `area`), for the translator tests and the NEURON comparison
NEURON {
    SUFFIX karea
    NONSPECIFIC_CURRENT i
    RANGE n, q, erev
}
UNITS { (mA) = (milliamp) (mV) = (millivolt) (nA) = (nanoamp) (um) = (micron) }
PARAMETER {
    n = 200 (1)
    q = 2e-5 (nA)
    erev = -80 (mV)
}
ASSIGNED { v (mV) i (mA/cm2) area (um2) }
BREAKPOINT {
    : nA per um2 to mA/cm2: 1 nA/um2 = 100 mA/cm2
    i = (100)*n*q*(v - erev)/(20 (mV))/area
}
