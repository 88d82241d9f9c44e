TITLE cashell.mod: test input: calcium in a shell whose volume follows the compartment's diameter
COMMENT
The shell of thickness depth under the membrane of a cylinder of diameter
diam holds depth (diam - depth) / diam of the volume under each unit of
membrane (um): a thin compartment fills faster. diam is NEURON's segment
diameter (declared, as NEURON needs); written for hinesbatch's tests.
ENDCOMMENT
NEURON {
    SUFFIX cashell
    USEION ca READ ica WRITE cai
    RANGE depth, taur, cainf, vratio
}
UNITS {
    (mM) = (milli/liter)
    (um) = (micron)
    FARADAY = (faraday) (coulomb)
}
PARAMETER {
    depth = 0.2 (um)
    taur = 100 (ms)
    cainf = 5e-5 (mM)
}
ASSIGNED {
    ica (mA/cm2)
    diam (um)
    vratio (um)
}
STATE { cai (mM) <1e-10> }
INITIAL {
    shell()
    cai = cainf
}
BREAKPOINT { SOLVE state METHOD cnexp }
DERIVATIVE state {
    shell()
    cai' = -10000 * ica / (2 * FARADAY * vratio) + (cainf - cai) / taur
}
PROCEDURE shell() {
    if (diam > 2 * depth) {
        vratio = depth * (diam - depth) / diam
    } else {
        vratio = diam / 4
    }
}
