TITLE SKv3_1.mod: fast non-inactivating Kv3.1 potassium (Rettig et al. 1992), as used by Hay et al. 2011
COMMENT
One activation gate m, no temperature factor. Steady state and time
constant fitted to Rettig et al. (1992, EMBO J 11:2473) by Hay et al. (2011).
ENDCOMMENT
NEURON {
    SUFFIX SKv3_1
    USEION k READ ek WRITE ik
    RANGE gSKv3_1bar
}
UNITS { (S) = (siemens) (mV) = (millivolt) (mA) = (milliamp) }
PARAMETER {
    gSKv3_1bar = 0.00001 (S/cm2)
}
ASSIGNED { v (mV) ek (mV) ik (mA/cm2) mInf mTau (ms) }
STATE { m }
BREAKPOINT {
    SOLVE states METHOD cnexp
    ik = gSKv3_1bar * m * (v - ek)
}
INITIAL { rates(v) m = mInf }
DERIVATIVE states {
    rates(v)
    m' = (mInf - m) / mTau
}
PROCEDURE rates(u (mV)) {
    UNITSOFF
    mInf = 1 / (1 + exp((u - 18.7) / -9.7))
    mTau = 4 / (1 + exp((u + 46.56) / -44.14))
    UNITSON
}
