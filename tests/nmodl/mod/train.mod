: train.mod: a synapse that drives itself with a train of transmitter pulses started by INITIAL's net_send; written for hinesbatch's tests of self-events.
: INITIAL sends the first pulse's start (flag 1) at `start`; each start opens a pulse and sends
: its end (flag 2) `dur` later; each end sends the next start until `number` pulses have run.
: Events from connections (flag 0) add their weight to the conductance while a pulse is open,
: and are counted while it is closed.
NEURON {
    POINT_PROCESS TrainSyn
    RANGE start, interval, dur, number, alpha, beta, gmax, e, i, n, missed
    NONSPECIFIC_CURRENT i
}

UNITS {
    (nA) = (nanoamp)
    (mV) = (millivolt)
    (uS) = (microsiemens)
}

PARAMETER {
    start = 0.5 (ms)
    interval = 2.2 (ms)
    dur = 0.6 (ms)
    number = 4 (1)
    alpha = 3 (/ms)
    beta = 0.4 (/ms)
    gmax = 0.003 (uS)
    e = 0 (mV)
}

ASSIGNED {
    v (mV)
    i (nA)
    on (1)
    n (1)
    gextra (uS)
    missed (1)
}

STATE {
    r (1)
}

INITIAL {
    r = 0
    on = 0
    n = 0
    gextra = 0
    missed = 0
    net_send(start, 1)
}

BREAKPOINT {
    SOLVE gating METHOD cnexp
    i = (gmax + gextra) * r * (v - e)
}

DERIVATIVE gating {
    r' = alpha * on * (1 - r) - beta * r
}

NET_RECEIVE(weight (uS)) {
    if (flag == 1) {
        on = 1
        n = n + 1
        net_send(dur, 2)
    } else if (flag == 2) {
        on = 0
        if (n < number) {
            net_send(interval - dur, 1)
        }
    } else {
        if (on == 1) {
            gextra = gextra + weight
        } else {
            missed = missed + 1
        }
    }
}
