TITLE Nap_Et2.mod: persistent sodium (Magistretti and Alonso 1999), as used by Hay et al. 2011
COMMENT
m^3 h. Steady states from Magistretti and Alonso (1999, J Gen Physiol
114:491); activation time constant six times that of the transient sodium's
activation, inactivation rates from the same paper, as in Hay et al. (2011).
Rates at 21 degC, Q10 2.3. Removable 0/0 points at -38, -17 and -64.4 mV.
ENDCOMMENT
NEURON {
    SUFFIX Nap_Et2
    USEION na READ ena WRITE ina
    RANGE gNap_Et2bar
}
UNITS { (S) = (siemens) (mV) = (millivolt) (mA) = (milliamp) }
PARAMETER {
    gNap_Et2bar = 0.00001 (S/cm2)
}
ASSIGNED { v (mV) celsius (degC) ena (mV) ina (mA/cm2) mInf mTau (ms) hInf hTau (ms) }
STATE { m h }
BREAKPOINT {
    SOLVE states METHOD cnexp
    ina = gNap_Et2bar * m * m * m * h * (v - ena)
}
INITIAL { rates(v) m = mInf h = hInf }
DERIVATIVE states {
    rates(v)
    m' = (mInf - m) / mTau
    h' = (hInf - h) / hTau
}
PROCEDURE rates(u (mV)) {
    LOCAL qt, a, b
    UNITSOFF
    qt = 2.3^((celsius - 21) / 10)
    mInf = 1 / (1 + exp((u + 52.6) / -4.6))
    a = 0.182 * (u + 38) / (1 - exp(-(u + 38) / 6))
    b = 0.124 * (-u - 38) / (1 - exp((u + 38) / 6))
    mTau = 6 / (a + b) / qt
    hInf = 1 / (1 + exp((u + 48.8) / 10))
    a = -2.88e-6 * (u + 17) / (1 - exp((u + 17) / 4.63))
    b = 6.94e-6 * (u + 64.4) / (1 - exp(-(u + 64.4) / 2.63))
    hTau = 1 / (a + b) / qt
    UNITSON
}
