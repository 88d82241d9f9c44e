TITLE Ca_LVAst.mod: low-voltage-activated (T-type) calcium (Avery and Johnston 1996), as used by Hay et al. 2011
COMMENT
m^2 h. Steady states and time constants after Avery and Johnston (1996,
J Neurosci 16:5567) with the 10 mV shift of Hay et al. (2011): the curves
are written in u = v + 10. Rates at 21 degC, Q10 2.3. Ohmic current to eca.
ENDCOMMENT
NEURON {
    SUFFIX Ca_LVAst
    USEION ca READ eca WRITE ica
    RANGE gCa_LVAstbar
}
UNITS { (S) = (siemens) (mV) = (millivolt) (mA) = (milliamp) }
PARAMETER {
    gCa_LVAstbar = 0.00001 (S/cm2)
}
ASSIGNED { v (mV) celsius (degC) eca (mV) ica (mA/cm2) mInf mTau (ms) hInf hTau (ms) }
STATE { m h }
BREAKPOINT {
    SOLVE states METHOD cnexp
    ica = gCa_LVAstbar * m * m * h * (v - eca)
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
    mInf = 1 / (1 + exp((u + 30) / -6))
    mTau = (5 + 20 / (1 + exp((u + 25) / 5))) / qt
    hInf = 1 / (1 + exp((u + 80) / 6.4))
    hTau = (20 + 50 / (1 + exp((u + 40) / 7))) / qt
    UNITSON
}
