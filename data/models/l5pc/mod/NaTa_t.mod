TITLE NaTa_t.mod: fast transient sodium (Colbert and Pan 2002), as used by Hay et al. 2011
COMMENT
m^3 h sodium. Alpha/beta rates of Colbert and Pan (2002, Nat Neurosci 5:533)
with the voltages and rate factors of Hay et al. (2011, PLoS Comput Biol
7:e1002107); rates measured at 21 degC, Q10 2.3. The rates have removable
0/0 points at -38 and -66 mV: written as they are, the translator finds them.
ENDCOMMENT
NEURON {
    SUFFIX NaTa_t
    USEION na READ ena WRITE ina
    RANGE gNaTa_tbar
}
UNITS { (S) = (siemens) (mV) = (millivolt) (mA) = (milliamp) }
PARAMETER {
    gNaTa_tbar = 0.00001 (S/cm2)
}
ASSIGNED { v (mV) celsius (degC) ena (mV) ina (mA/cm2) mInf mTau (ms) hInf hTau (ms) }
STATE { m h }
BREAKPOINT {
    SOLVE states METHOD cnexp
    ina = gNaTa_tbar * m * m * m * h * (v - ena)
}
INITIAL { rates(v) m = mInf h = hInf }
DERIVATIVE states {
    rates(v)
    m' = (mInf - m) / mTau
    h' = (hInf - h) / hTau
}
PROCEDURE rates(u (mV)) {
    LOCAL qt, a, b
    UNITSOFF
    qt = 2.3^((celsius - 21) / 10)
    a = 0.182 * (u + 38) / (1 - exp(-(u + 38) / 6))
    b = 0.124 * (-u - 38) / (1 - exp((u + 38) / 6))
    mInf = a / (a + b)
    mTau = 1 / (a + b) / qt
    a = -0.015 * (u + 66) / (1 - exp((u + 66) / 6))
    b = -0.015 * (-u - 66) / (1 - exp(-(u + 66) / 6))
    hInf = a / (a + b)
    hTau = 1 / (a + b) / qt
    UNITSON
}
