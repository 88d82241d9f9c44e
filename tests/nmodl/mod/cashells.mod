: cashells.mod: calcium in concentric shells under the membrane, diffusing inward and bound by a buffer in each shell (hinesbatch test file: arrays, FROM loops, an indexed COMPARTMENT)
NEURON {
    SUFFIX cashells
    USEION ca READ cai, ica WRITE cai
    RANGE dca, kon, koff, btotal
}
UNITS {
    (mM) = (milli/liter)
    (um) = (micron)
    (mA) = (milliamp)
    FARADAY = (faraday) (coulomb)
    PI = (pi) (1)
}
DEFINE NSHELL 4
PARAMETER {
    dca = 0.6 (um2/ms)
    kon = 100 (/mM-ms)
    koff = 0.1 (/ms)
    btotal = 0.05 (mM)
}
ASSIGNED {
    diam (um)
    ica (mA/cm2)
    cai (mM)
    vshell[NSHELL] (um2)
    gshell[NSHELL] (um)
}
STATE {
    ca[NSHELL] (mM) <1e-10>
    buf[NSHELL] (mM)
    cabuf[NSHELL] (mM)
}
BREAKPOINT { SOLVE shells METHOD sparse }
INITIAL {
    shells_geometry()
    FROM k = 0 TO NSHELL - 1 {
        ca[k] = cai
        buf[k] = btotal * koff / (koff + kon * cai)
        cabuf[k] = btotal - buf[k]
    }
}
: Each shell's area in the cross-section (um2 per um of length) and the
: conductance-like factor of the face between shell k and k + 1.
PROCEDURE shells_geometry() { LOCAL r, dr
    r = diam / 2
    dr = r / NSHELL
    FROM k = 0 TO NSHELL - 1 {
        vshell[k] = PI * (r * r - (r - dr) * (r - dr))
        gshell[k] = 2 * PI * (r - dr) / dr
        r = r - dr
    }
}
KINETIC shells {
    COMPARTMENT k, vshell[k] { ca buf cabuf }
    ~ ca[0] << (-ica * PI * diam / (2 * FARADAY) * (1e4))
    FROM k = 0 TO NSHELL - 2 {
        ~ ca[k] <-> ca[k + 1] (dca * gshell[k], dca * gshell[k])
    }
    FROM k = 0 TO NSHELL - 1 {
        ~ ca[k] + buf[k] <-> cabuf[k] (kon, koff)
    }
    cai = ca[0]
}
