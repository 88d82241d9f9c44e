TITLE cal.mod: test input: L-type calcium through the GHK current equation
NEURON {
    SUFFIX caltest
    USEION ca READ cai, cao WRITE ica
    RANGE pbar
}
UNITS {
    (mM) = (milli/liter)
    FARADAY = (faraday) (coulomb)
    R = (k-mole) (joule/degC)
}
PARAMETER { pbar = 1e-4 (cm/s) }
ASSIGNED { v (mV) celsius (degC) cai (mM) cao (mM) ica (mA/cm2) }
STATE { m }
BREAKPOINT {
    SOLVE states METHOD cnexp
    ica = pbar * m * m * ghk(v, cai, cao)
}
INITIAL { m = minf(v) }
DERIVATIVE states { m' = (minf(v) - m) / 1.5 }
FUNCTION minf(v (mV)) { minf = 1 / (1 + exp(-(v + 10) / 6)) }
FUNCTION ghk(v (mV), ci (mM), co (mM)) (mV) {
    LOCAL z
    z = 2 * FARADAY * v * 0.001 / (R * (celsius + 273.15))
    ghk = 2 * FARADAY * 0.001 * z * (ci - co * exp(-z)) / (1 - exp(-z))
}
