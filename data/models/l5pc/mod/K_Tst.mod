TITLE K_Tst.mod: fast inactivating (transient) potassium (Korngreen and Sakmann 2000), as used by Hay et al. 2011
COMMENT
m^4 h. Korngreen and Sakmann (2000, J Physiol 525:621), K_T of the
nucleated patches, with the 10 mV shift of Hay et al. (2011): the curves
are written in u = v + 10. Rates at 21 degC, Q10 2.3.
ENDCOMMENT
NEURON {
    SUFFIX K_Tst
    USEION k READ ek WRITE ik
    RANGE gK_Tstbar
}
UNITS { (S) = (siemens) (mV) = (millivolt) (mA) = (milliamp) }
PARAMETER {
    gK_Tstbar = 0.00001 (S/cm2)
}
ASSIGNED { v (mV) celsius (degC) ek (mV) ik (mA/cm2) mInf mTau (ms) hInf hTau (ms) }
STATE { m h }
BREAKPOINT {
    SOLVE states METHOD cnexp
    ik = gK_Tstbar * m^4 * h * (v - ek)
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
    mInf = 1 / (1 + exp(-u / 19))
    mTau = (0.34 + 0.92 * exp(-((u + 71) / 59)^2)) / qt
    hInf = 1 / (1 + exp((u + 66) / 10))
    hTau = (8 + 49 * exp(-((u + 73) / 23)^2)) / qt
    UNITSON
}
