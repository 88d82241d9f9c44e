TITLE Im.mod: muscarinic (M-type) potassium (Adams, Brown and Constanti 1982), as used by Hay et al. 2011
COMMENT
One gate m with exponential alpha/beta rates symmetric about -35 mV (Adams
et al. 1982, J Physiol 330:537; the form of Hay et al. 2011). Rates at
21 degC, Q10 2.3.
ENDCOMMENT
NEURON {
    SUFFIX Im
    USEION k READ ek WRITE ik
    RANGE gImbar
}
UNITS { (S) = (siemens) (mV) = (millivolt) (mA) = (milliamp) }
PARAMETER {
    gImbar = 0.00001 (S/cm2)
}
ASSIGNED { v (mV) celsius (degC) ek (mV) ik (mA/cm2) mInf mTau (ms) }
STATE { m }
BREAKPOINT {
    SOLVE states METHOD cnexp
    ik = gImbar * m * (v - ek)
}
INITIAL { rates(v) m = mInf }
DERIVATIVE states {
    rates(v)
    m' = (mInf - m) / mTau
}
PROCEDURE rates(u (mV)) {
    LOCAL qt, a, b
    UNITSOFF
    qt = 2.3^((celsius - 21) / 10)
    a = 3.3e-3 * exp(0.1 * (u + 35))
    b = 3.3e-3 * exp(-0.1 * (u + 35))
    mInf = a / (a + b)
    mTau = 1 / (a + b) / qt
    UNITSON
}
