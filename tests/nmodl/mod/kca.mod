TITLE kca.mod: test input: calcium-activated potassium, a Hill function of cai
NEURON {
    SUFFIX kcatest
    USEION k READ ek WRITE ik
    USEION ca READ cai
    RANGE gbar
    GLOBAL kd, tau
}
PARAMETER {
    gbar = 0.001 (S/cm2)
    kd = 0.00043 (mM)
    tau = 1 (ms)
}
ASSIGNED { v (mV) ek (mV) cai (mM) ik (mA/cm2) zinf }
STATE { z }
BREAKPOINT {
    SOLVE states METHOD cnexp
    ik = gbar * z * (v - ek)
}
INITIAL { rates(cai) z = zinf }
DERIVATIVE states { rates(cai) z' = (zinf - z) / tau }
PROCEDURE rates(ca (mM)) {
    if (ca < 1e-7) { ca = ca + 1e-7 }
    zinf = 1 / (1 + (kd / ca)^4.8)
}
