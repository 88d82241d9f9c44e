TITLE CaDynamics_E2.mod: intracellular calcium in a shell under the membrane with first-order decay to a floor, as used by Hay et al. 2011
COMMENT
A fraction gamma of the calcium current enters a shell of thickness depth
(the rest is buffered at once); the free calcium relaxes to minCai with
time constant decay (Hay et al. 2011, after Destexhe et al. 1994).
cai' = -10000 gamma ica / (2 F depth) - (cai - minCai) / decay
(10000: mA/cm2 over um to mM/ms). INITIAL sets cai = minCai: the value
it relaxes to (without it NEURON would start at cai0_ca_ion).
ENDCOMMENT
NEURON {
    SUFFIX CaDynamics_E2
    USEION ca READ ica WRITE cai
    RANGE decay, gamma, minCai, depth
}
UNITS {
    (mV) = (millivolt)
    (mA) = (milliamp)
    FARADAY = (faraday) (coulombs)
    (molar) = (1/liter)
    (mM) = (millimolar)
    (um) = (micron)
}
PARAMETER {
    gamma = 0.05
    decay = 80 (ms)
    depth = 0.1 (um)
    minCai = 1e-4 (mM)
}
ASSIGNED { ica (mA/cm2) }
STATE { cai (mM) }
INITIAL { cai = minCai }
BREAKPOINT { SOLVE states METHOD cnexp }
DERIVATIVE states {
    cai' = -10000 * ica * gamma / (2 * FARADAY * depth) - (cai - minCai) / decay
}
