TITLE Ih.mod: hyperpolarization-activated cation current (Kole, Hallermann and Stuart 2006), as used by Hay et al. 2011
COMMENT
One gate m, alpha/beta rates of Kole et al. (2006, J Neurosci 26:1677),
reversal potential -45 mV; no temperature factor. A nonspecific current
(Na and K through the same channel). Removable 0/0 at -154.9 mV.
ENDCOMMENT
NEURON {
    SUFFIX Ih
    NONSPECIFIC_CURRENT ihcn
    RANGE gIhbar, ehcn
}
UNITS { (S) = (siemens) (mV) = (millivolt) (mA) = (milliamp) }
PARAMETER {
    gIhbar = 0.00001 (S/cm2)
    ehcn = -45.0 (mV)
}
ASSIGNED { v (mV) ihcn (mA/cm2) mInf mTau (ms) }
STATE { m }
BREAKPOINT {
    SOLVE states METHOD cnexp
    ihcn = gIhbar * m * (v - ehcn)
}
INITIAL { rates(v) m = mInf }
DERIVATIVE states {
    rates(v)
    m' = (mInf - m) / mTau
}
PROCEDURE rates(u (mV)) {
    LOCAL a, b
    UNITSOFF
    a = 0.00643 * (u + 154.9) / (exp((u + 154.9) / 11.9) - 1)
    b = 0.193 * exp(u / 33.1)
    mInf = a / (a + b)
    mTau = 1 / (a + b)
    UNITSON
}
