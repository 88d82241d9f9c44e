TITLE nap.mod: test input: persistent sodium whose rates step v off their 0/0 point, as published channels do
NEURON {
    SUFFIX naptest
    USEION na READ ena WRITE ina
    RANGE gbar
}
PARAMETER { gbar = 1e-4 (S/cm2) }
ASSIGNED { v (mV) ena (mV) ina (mA/cm2) minf mtau (ms) }
STATE { m }
BREAKPOINT {
    SOLVE states METHOD cnexp
    ina = gbar * m * m * m * (v - ena)
}
INITIAL { rates() m = minf }
DERIVATIVE states { rates() m' = (minf - m) / mtau }
PROCEDURE rates() {
    LOCAL a, b
    : v is this evaluation's own copy (NEURON's semantics): nudged off 0/0
    if (v == -38) {
        v = v + 0.0001
    }
    a = 0.182 * (v + 38) / (1 - exp(-(v + 38) / 6))
    b = 0.124 * (-v - 38) / (1 - exp((v + 38) / 6))
    mtau = 6 / (a + b)
    minf = 1 / (1 + exp(-(v + 52.6) / 4.6))
}
