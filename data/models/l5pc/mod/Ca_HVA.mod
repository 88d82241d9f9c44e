TITLE Ca_HVA.mod: high-voltage-activated calcium (Reuveni et al. 1993), as used by Hay et al. 2011
COMMENT
m^2 h with the alpha/beta rates of Reuveni, Friedman, Amitai and Gutnick
(1993, J Neurosci 13:4609); no temperature factor. Ohmic current to eca
(the model computes eca from cai and cao, Nernst). Removable 0/0 at -27 mV.
ENDCOMMENT
NEURON {
    SUFFIX Ca_HVA
    USEION ca READ eca WRITE ica
    RANGE gCa_HVAbar
}
UNITS { (S) = (siemens) (mV) = (millivolt) (mA) = (milliamp) }
PARAMETER {
    gCa_HVAbar = 0.00001 (S/cm2)
}
ASSIGNED { v (mV) eca (mV) ica (mA/cm2) mInf mTau (ms) hInf hTau (ms) }
STATE { m h }
BREAKPOINT {
    SOLVE states METHOD cnexp
    ica = gCa_HVAbar * m * m * h * (v - eca)
}
INITIAL { rates(v) m = mInf h = hInf }
DERIVATIVE states {
    rates(v)
    m' = (mInf - m) / mTau
    h' = (hInf - h) / hTau
}
PROCEDURE rates(u (mV)) {
    LOCAL a, b
    UNITSOFF
    a = 0.055 * (-27 - u) / (exp((-27 - u) / 3.8) - 1)
    b = 0.94 * exp((-75 - u) / 17)
    mInf = a / (a + b)
    mTau = 1 / (a + b)
    a = 0.000457 * exp((-13 - u) / 50)
    b = 0.0065 / (exp((-u - 15) / 28) + 1)
    hInf = a / (a + b)
    hTau = 1 / (a + b)
    UNITSON
}
