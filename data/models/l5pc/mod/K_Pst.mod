TITLE K_Pst.mod: slow inactivating (persistent) potassium (Korngreen and Sakmann 2000), as used by Hay et al. 2011
COMMENT
m^2 h. Korngreen and Sakmann (2000, J Physiol 525:621), K_P of the
nucleated patches, with the 10 mV shift of Hay et al. (2011): the curves
are written in u = v + 10. Rates at 21 degC, Q10 2.3. The activation time
constant has one expression below u = -50 mV and another above.
ENDCOMMENT
NEURON {
    SUFFIX K_Pst
    USEION k READ ek WRITE ik
    RANGE gK_Pstbar
}
UNITS { (S) = (siemens) (mV) = (millivolt) (mA) = (milliamp) }
PARAMETER {
    gK_Pstbar = 0.00001 (S/cm2)
}
ASSIGNED { v (mV) celsius (degC) ek (mV) ik (mA/cm2) mInf mTau (ms) hInf hTau (ms) }
STATE { m h }
BREAKPOINT {
    SOLVE states METHOD cnexp
    ik = gK_Pstbar * m * m * h * (v - ek)
}
INITIAL { rates(v) m = mInf h = hInf }
DERIVATIVE states {
    rates(v)
    m' = (mInf - m) / mTau
    h' = (hInf - h) / hTau
}
PROCEDURE rates(vm (mV)) {
    LOCAL qt, u
    UNITSOFF
    qt = 2.3^((celsius - 21) / 10)
    u = vm + 10
    mInf = 1 / (1 + exp(-(u + 1) / 12))
    if (u < -50) {
        mTau = (1.25 + 175.03 * exp(0.026 * u)) / qt
    } else {
        mTau = (1.25 + 13 * exp(-0.026 * u)) / qt
    }
    hInf = 1 / (1 + exp((u + 54) / 11))
    hTau = (360 + (1010 + 24 * (u + 55)) * exp(-((u + 75) / 48)^2)) / qt
    UNITSON
}
