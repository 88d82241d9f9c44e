: tdrive.mod: a leak whose conductance follows the simulation time t (in BREAKPOINT, through a FUNCTION and in the state equations), written for hinesbatch's tests of t.
NEURON {
    SUFFIX tdrive
    NONSPECIFIC_CURRENT i
    RANGE gmax, e, period, tau, amp, gt, ph
}

PARAMETER {
    gmax = 0.0005 (S/cm2)
    e = -60 (mV)
    period = 5 (ms)
    tau = 2 (ms)
    amp = 1
}

ASSIGNED {
    v (mV)
    i (mA/cm2)
    gt (S/cm2)
    ph
}

CONSTANT { TWOPI = 6.283185307179586 }

STATE { a b }

INITIAL {
    : t is 0 here (or NEURON's tstart)
    a = wave(t)
    b = 0
}

BREAKPOINT {
    SOLVE states METHOD cnexp
    : evaluated at t + dt/2 in a step; read by the SOLVE (as NEURON's nrn_cur before nrn_state)
    ph = sin(TWOPI * t / period)
    gt = gmax * (1 + 0.5 * a + 0.25 * b) * (1 + 0.25 * sin(TWOPI * t / period))
    i = gt * (v - e)
}

DERIVATIVE states {
    a' = (wave(t) - a) / tau
    b' = (ph - b) / tau
}

FUNCTION wave(tt (ms)) {
    wave = amp * (0.5 + 0.5 * cos(TWOPI * tt / period))
}
