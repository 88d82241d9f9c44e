TITLE nat.mod: test input: transient sodium with a vtrap FUNCTION, TABLE, derivimplicit
NEURON {
    SUFFIX nattest
    USEION na READ ena WRITE ina
    RANGE gbar, vshift
}
UNITS { (mV) = (millivolt) (mA) = (milliamp) }
PARAMETER {
    gbar = 0.05 (S/cm2)
    vshift = -5 (mV)
    q10 = 2.3
}
ASSIGNED { v (mV) ena (mV) ina (mA/cm2) celsius (degC) minf hinf mtau (ms) htau (ms) }
STATE { m h }
BREAKPOINT {
    SOLVE states METHOD derivimplicit
    ina = gbar * m^3 * h * (v - ena)
}
INITIAL { rates(v) m = minf h = hinf }
DERIVATIVE states {
    rates(v)
    m' = (minf - m) / mtau
    h' = (hinf - h) / htau
}
PROCEDURE rates(vm (mV)) {
    LOCAL a, b, qt
    TABLE minf, hinf, mtau, htau DEPEND celsius, vshift FROM -100 TO 100 WITH 200
    UNITSOFF
    qt = q10^((celsius - 21) / 10)
    a = 0.182 * vtrap(-(vm - vshift + 38), 6)
    b = 0.124 * vtrap(vm - vshift + 38, 6)
    mtau = 1 / (a + b) / qt
    minf = a / (a + b)
    a = 0.024 * vtrap(vm - vshift + 50, 5)
    b = 0.0091 * vtrap(-(vm - vshift + 75), 5)
    htau = 1 / (a + b) / qt
    hinf = 1 / (1 + exp((vm - vshift + 65) / 6.2))
    UNITSON
}
FUNCTION vtrap(x, y) {
    : x/(1 - exp(-x/y)), with its limit y at x = 0
    if (fabs(x / y) < 1e-6) {
        vtrap = y * (1 + x / y / 2)
    } else {
        vtrap = x / (1 - exp(-x / y))
    }
}
