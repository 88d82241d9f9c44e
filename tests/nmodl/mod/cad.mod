TITLE cad.mod: test input: calcium in a shell under the membrane, pumped back to rest
NEURON {
    SUFFIX cadtest
    USEION ca READ ica WRITE cai
    RANGE depth, taur, cainf
}
UNITS {
    (mM) = (milli/liter)
    (um) = (micron)
    FARADAY = (faraday) (coulomb)
}
PARAMETER {
    depth = 0.1 (um)
    taur = 200 (ms)
    cainf = 1e-4 (mM)
}
ASSIGNED { ica (mA/cm2) }
STATE { cai (mM) <1e-10> }
INITIAL { cai = cainf }
BREAKPOINT { SOLVE state METHOD cnexp }
DERIVATIVE state {
    LOCAL drive
    drive = -10000 * ica / (2 * FARADAY * depth)
    if (drive <= 0) { drive = 0 }
    cai' = drive + (cainf - cai) / taur
}
