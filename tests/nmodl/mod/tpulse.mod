: tpulse.mod: a current injected through an electrode (ELECTRODE_CURRENT, positive inward) during a window of t, with a small voltage-dependent part so that its conductance is not zero; written for hinesbatch's tests of ELECTRODE_CURRENT.
NEURON {
    POINT_PROCESS TPulse
    ELECTRODE_CURRENT i
    RANGE del, dur, amp, gs, es
}

UNITS {
    (nA) = (nanoamp)
    (mV) = (millivolt)
    (uS) = (microsiemens)
}

PARAMETER {
    del = 3 (ms)
    dur = 2 (ms)
    amp = 0.3 (nA)
    gs = 0.001 (uS)
    es = -70 (mV)
}

ASSIGNED {
    v (mV)
    i (nA)
}

BREAKPOINT {
    if (t >= del && t < del + dur) {
        i = amp * (1 + 0.5 * sin(t)) - gs * (v - es)
    } else {
        i = -gs * (v - es)
    }
}
