: vstep.mod: a voltage clamp through a series resistance that steps from a holding level to a
: test level and then lets go, written for hinesbatch's tests. Its current is computed again
: after each step by a PROCEDURE solved with METHOD after_cvode, and its on/off flag is a number
: that one if sets and another reads as a condition.
NEURON {
    POINT_PROCESS VStep
    ELECTRODE_CURRENT i
    RANGE hold, test, start, width, rser, i, vcmd
}

UNITS {
    (nA) = (nanoamp)
    (mV) = (millivolt)
}

PARAMETER {
    hold = -70 (mV)
    test = -20 (mV)
    start = 1 (ms)
    width = 5 (ms)
    rser = 2 (megohm)
}

ASSIGNED {
    v (mV)
    i (nA)
    vcmd (mV)
    stop (ms)
    clamped
}

INITIAL {
    stop = start + width
    clamped = 0
}

BREAKPOINT {
    SOLVE drive METHOD after_cvode
    command()
}

PROCEDURE drive() {
    if (clamped) {
        i = (vcmd - v) / rser
    } else {
        i = 0
    }
}

PROCEDURE command() {
    clamped = 1
    if (t < start) {
        vcmd = hold
    } else if (t < stop) {
        vcmd = test
    } else {
        vcmd = hold
        clamped = 0
    }
    drive()
}
