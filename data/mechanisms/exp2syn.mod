TITLE exp2syn.mod: synapse whose conductance is the difference of two exponentials
COMMENT
Written for hinesbatch: g = B - A with A' = -A/tau1, B' = -B/tau2 (tau1 <
tau2: rise tau1, decay tau2). An event of weight w (uS) adds w*factor to both,
factor chosen so that the peak of g is w. The peak of exp(-t/tau2) -
exp(-t/tau1) is at tp = tau1 tau2/(tau2 - tau1) log(tau2/tau1). As tau1
approaches tau2 the difference vanishes, so tau1 is kept below 0.9999 tau2
(and above 1e-9 tau2) from INITIAL on.
ENDCOMMENT

NEURON {
    POINT_PROCESS Exp2Syn
    RANGE tau1, tau2, e, i
    NONSPECIFIC_CURRENT i
    RANGE g
}

UNITS {
    (nA) = (nanoamp)
    (mV) = (millivolt)
    (uS) = (microsiemens)
}

PARAMETER {
    tau1 = 0.1 (ms) <1e-9, 1e9>
    tau2 = 10 (ms) <1e-9, 1e9>
    e = 0 (mV)
}

ASSIGNED {
    v (mV)
    i (nA)
    g (uS)
    factor
}

STATE {
    A (uS)
    B (uS)
}

INITIAL {
    LOCAL tp
    if (tau1 / tau2 > 0.9999) {
        tau1 = 0.9999 * tau2
    }
    if (tau1 / tau2 < 1e-9) {
        tau1 = tau2 * 1e-9
    }
    A = 0
    B = 0
    tp = (tau1 * tau2) / (tau2 - tau1) * log(tau2 / tau1)
    factor = 1 / (-exp(-tp / tau1) + exp(-tp / tau2))
}

BREAKPOINT {
    SOLVE state METHOD cnexp
    g = B - A
    i = g * (v - e)
}

DERIVATIVE state {
    A' = -A / tau1
    B' = -B / tau2
}

NET_RECEIVE(weight (uS)) {
    A = A + weight * factor
    B = B + weight * factor
}
