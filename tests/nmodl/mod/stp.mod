: stp.mod: a synapse whose release depends on its connection's history (depression of the resources and facilitation of the release fraction, in the manner of Tsodyks and Markram), kept per connection in NET_RECEIVE's extra arguments and set up by NET_RECEIVE's INITIAL; written for hinesbatch's tests of NET_RECEIVE with several arguments.
NEURON {
    POINT_PROCESS StpSyn
    RANGE tau, tau_rec, tau_facil, U, u0, e, i
    NONSPECIFIC_CURRENT i
}

UNITS {
    (nA) = (nanoamp)
    (mV) = (millivolt)
    (uS) = (microsiemens)
}

PARAMETER {
    tau = 2 (ms)
    tau_rec = 40 (ms)
    tau_facil = 15 (ms)
    U = 0.3 (1)
    u0 = 0.1 (1)
    e = 0 (mV)
}

ASSIGNED {
    v (mV)
    i (nA)
}

STATE {
    g (uS)
}

INITIAL {
    g = 0
}

BREAKPOINT {
    SOLVE decay METHOD cnexp
    i = g * (v - e)
}

DERIVATIVE decay {
    g' = -g / tau
}

NET_RECEIVE(weight (uS), x (1), u (1), tlast (ms)) {
    LOCAL dt_last, rel
    INITIAL {
        : full resources, the resting release fraction, the last event at t
        x = 1
        u = u0
        tlast = t
    }
    dt_last = t - tlast
    : the resources recover towards 1 and the facilitation decays towards
    : its rest between events, then this event facilitates and releases
    x = 1 - (1 - x) * exp(-dt_last / tau_rec)
    u = u0 + (u - u0) * exp(-dt_last / tau_facil)
    u = u + U * (1 - u)
    rel = u * x
    x = x - rel
    g = g + weight * rel
    tlast = t
}
