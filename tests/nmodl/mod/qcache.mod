: qcache.mod: a calcium pump scaled by a temperature factor that BREAKPOINT computes once per celsius into module LOCALs (the cache idiom of older files), through a PROCEDURE, read again by the SOLVE; for the translator tests and the NEURON comparison
NEURON {
    SUFFIX qpump
    USEION ca READ cai WRITE ica
    RANGE vmax, km, tau
}
UNITS { (mM) = (milli/liter) (mA) = (milliamp) }
PARAMETER { vmax = .05 (mA/cm2) km = .0003 (mM) tau = 40 (ms) }
ASSIGNED { celsius (degC) ica (mA/cm2) cai (mM) }
STATE { w }
LOCAL fq, seen
INITIAL { w = 1 }
BREAKPOINT {
    SOLVE adapt METHOD cnexp
    factor()
    ica = vmax*fq*w*cai/(cai + km)
}
PROCEDURE factor() {
    if (seen*1(degC) != celsius) {
        seen = celsius
        fq = 2.5^((celsius - 20)/10 (degC))
    }
}
DERIVATIVE adapt { w' = (1/fq - w)/tau }
