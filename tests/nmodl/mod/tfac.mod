: tfac.mod: a synapse whose events facilitate with the time since the last one (NET_RECEIVE reads t), written for hinesbatch's tests of t.
NEURON {
    POINT_PROCESS TFac
    NONSPECIFIC_CURRENT i
    RANGE tau, e, taufac, finc, f, tlast
}

PARAMETER {
    tau = 3 (ms)
    e = 0 (mV)
    taufac = 20 (ms)
    finc = 0.5
}

ASSIGNED {
    v (mV)
    i (nA)
    f
    tlast (ms)
}

STATE { g (uS) }

INITIAL {
    g = 0
    f = 1
    tlast = -1e9
}

BREAKPOINT {
    SOLVE states METHOD cnexp
    i = g * (v - e)
}

DERIVATIVE states {
    g' = -g / tau
}

NET_RECEIVE(w (uS)) {
    : the facilitation left from earlier events decays over the time since the last
    f = 1 + (f - 1) * exp(-(t - tlast) / taufac)
    g = g + w * f
    f = f + finc
    tlast = t
}
