TITLE kleak.mod: a potassium leak, a user's own mechanism (examples/consumer/nmodl)
NEURON {
    SUFFIX kleak
    USEION k READ ek WRITE ik
    RANGE g
}
PARAMETER { g = 0.0002 (S/cm2) }
ASSIGNED { v (mV) ek (mV) ik (mA/cm2) }
BREAKPOINT { ik = g * (v - ek) }
