TITLE crw.mod: a calcium pool whose pump current it both writes and takes back out of the total it reads (USEION ca READ ica WRITE ica), written for hinesbatch's tests

COMMENT
The pool integrates every calcium current but its own pump's: it reads the
ion's total ica in its SOLVE and subtracts what its BREAKPOINT wrote the step
before (ilast). The pump current, outward, grows with the pool above its
floor; the pool also leaks toward its floor with time constant taup.
ENDCOMMENT

NEURON {
    SUFFIX crw
    USEION ca READ cao, ica WRITE cai, ica
    RANGE kpump, cfloor, shell, taup, ipump, ilast
}

UNITS {
    (mA) = (milliamp)
    (mM) = (milli/liter)
    (um) = (micron)
    FARADAY = (faraday) (coulomb)
}

PARAMETER {
    kpump = 0.02 (mA/cm2/mM)
    cfloor = 2e-5 (mM)
    shell = 0.25 (um)
    taup = 80 (ms)
}

ASSIGNED {
    cao (mM)
    cai (mM)
    ica (mA/cm2)
    ipump (mA/cm2)
    ilast (mA/cm2)
}

STATE { cpool (mM) }

INITIAL {
    cpool = cai
    ipump = kpump * (cpool - cfloor)
    ilast = ipump
}

BREAKPOINT {
    SOLVE pool METHOD derivimplicit
    ilast = ipump
    ica = ipump
}

DERIVATIVE pool {
    ipump = kpump * (cpool - cfloor)
    cpool' = -(ica - ilast) * (1e4) / (2 * FARADAY * shell) - ipump * (1e4) / (2 * FARADAY * shell)
             + (cfloor - cpool) / taup
    cai = cpool
}
