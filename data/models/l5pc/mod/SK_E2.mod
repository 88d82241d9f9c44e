TITLE SK_E2.mod: small-conductance calcium-activated potassium (Kohler et al. 1996), as used by Hay et al. 2011
COMMENT
One gate z whose steady state is a Hill function of cai (half activation
0.43 uM, Hill coefficient 4.8; Kohler et al. 1996, Science 273:1709) and
whose time constant is 1 ms. Below 1e-7 mM, 1e-7 mM is added to cai
(keeps the Hill function away from 0/0 at cai = 0), as in Hay et al. (2011).
ENDCOMMENT
NEURON {
    SUFFIX SK_E2
    USEION k READ ek WRITE ik
    USEION ca READ cai
    RANGE gSK_E2bar
    GLOBAL zTau
}
UNITS { (S) = (siemens) (mV) = (millivolt) (mA) = (milliamp) (mM) = (milli/liter) }
PARAMETER {
    gSK_E2bar = 0.000001 (S/cm2)
    zTau = 1 (ms)
}
ASSIGNED { v (mV) ek (mV) cai (mM) ik (mA/cm2) zInf }
STATE { z }
BREAKPOINT {
    SOLVE states METHOD cnexp
    ik = gSK_E2bar * z * (v - ek)
}
INITIAL { rates(cai) z = zInf }
DERIVATIVE states {
    rates(cai)
    z' = (zInf - z) / zTau
}
PROCEDURE rates(ca (mM)) {
    LOCAL c
    c = ca
    if (c < 1e-7) { c = c + 1e-7 }
    zInf = 1 / (1 + (0.00043 / c)^4.8)
}
