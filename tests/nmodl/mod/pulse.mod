: pulse.mod: a synapse of fixed-length transmitter pulses, each ended by a self-event (net_send); written for hinesbatch's tests of self-events.
: Each event opens a pulse and sends itself an event for the pulse's end; the last pulse to end
: sends one more at once (delay 0) that marks the time the transmitter left. Each connection
: keeps its count of events, its open pulses and the conductance they give: a pulse's end takes
: off its share of what they give then (a self-event reads its connection's values as they are
: at its delivery).
NEURON {
    POINT_PROCESS PulseSyn
    RANGE dur, alpha, beta, gmax, e, i, g, open, wsum, ton, toff
    NONSPECIFIC_CURRENT i
}

UNITS {
    (nA) = (nanoamp)
    (mV) = (millivolt)
    (uS) = (microsiemens)
}

PARAMETER {
    dur = 1.5 (ms)
    alpha = 2 (/ms)
    beta = 0.25 (/ms)
    gmax = 1 (1)
    e = 0 (mV)
}

ASSIGNED {
    v (mV)
    i (nA)
    g (uS)
    open (1)
    wsum (uS)
    ton (ms)
    toff (ms)
}

STATE {
    r (1)
}

INITIAL {
    r = 0
    open = 0
    wsum = 0
    ton = -1
    toff = -1
}

BREAKPOINT {
    SOLVE gating METHOD cnexp
    g = gmax * wsum * r
    i = g * (v - e)
}

DERIVATIVE gating {
    r' = alpha * open * (1 - r) - beta * r
}

NET_RECEIVE(weight (uS), count (1), nopen (1), given (uS)) {
    LOCAL amt
    if (flag == 0) {
        : a new pulse, ending after dur; the connection's first event gives
        : twice its weight, later ones less (depression by its count)
        count = count + 1
        amt = weight * (1 + 1 / count)
        given = given + amt
        nopen = nopen + 1
        open = open + 1
        wsum = wsum + amt
        ton = t
        net_send(dur, 1)
    } else if (flag == 1) {
        : a pulse ends: its share of what the connection gives now
        amt = given / nopen
        given = given - amt
        nopen = nopen - 1
        open = open - 1
        wsum = wsum - amt
        if (open == 0) {
            net_send(0, 2)
        }
    } else {
        toff = t
        wsum = 0
    }
}
