COMMENT
tadj.mod: a test input of hinesbatch's translator (written for its tests).
A sodium-like channel in the style of many published files: the temperature
factor tadj set in INITIAL and kept for BREAKPOINT and the SOLVE; numbers that
carry their units inside expressions (10 (degC), 1 (ms)); a TABLE procedure,
called from INITIAL too, that also sets a dt-dependent value nothing uses.
ENDCOMMENT
NEURON {
    SUFFIX tadj
    USEION na READ ena WRITE ina
    RANGE gbar, gna
    GLOBAL minf, hinf, mtau, htau, q10, temp, vshift
}
UNITS {
    (mA) = (milliamp)
    (mV) = (millivolt)
    (pS) = (picosiemens)
}
PARAMETER {
    gbar = 800 (pS/um2)
    vshift = -4 (mV)
    temp = 24 (degC)
    q10 = 2.4
    vmin = -120 (mV)
    vmax = 100 (mV)
}
ASSIGNED {
    v (mV)
    celsius (degC)
    dt (ms)
    ena (mV)
    ina (mA/cm2)
    gna (pS/um2)
    minf hinf
    mtau (ms) htau (ms)
    tadj tinc mexp hexp
}
STATE { m h }
INITIAL {
    tadj = q10^((celsius - temp)/(10 (degC)))
    rates(v + vshift)
    m = minf
    h = hinf
}
BREAKPOINT {
    SOLVE states METHOD cnexp
    gna = tadj*gbar*m*m*m*h
    ina = (1e-4)*gna*(v - ena)
}
DERIVATIVE states {
    rates(v + vshift)
    m' = (minf - m)/mtau
    h' = (hinf - h)/htau
}
PROCEDURE rates(vm (mV)) {
    TABLE minf, hinf, mtau, htau DEPEND celsius, temp FROM vmin TO vmax WITH 199
    kinetics(vm)
    tinc = -dt*tadj
    mexp = 1 - exp(tinc/mtau)
    hexp = 1 - exp(tinc/htau)
}
PROCEDURE kinetics(vm (mV)) {
    LOCAL a, b
    a = 0.17*trap(vm + 33 (mV), 8.5 (mV))
    b = 0.13*trap(-(vm + 33 (mV)), 8.5 (mV))
    mtau = 1 (ms)/tadj/(a + b)
    minf = a/(a + b)
    a = 0.022*trap(vm + 48 (mV), 5 (mV))
    b = 0.009*trap(-(vm + 73 (mV)), 5 (mV))
    htau = 1 (ms)/tadj/(a + b)
    hinf = 1/(1 + exp((vm + 62 (mV))/6.1 (mV)))
}
FUNCTION trap(x (mV), y (mV)) (mV) {
    if (fabs(x/y) < 1e-6) {
        trap = y*(1 + x/y/2)
    } else {
        trap = x/(1 - exp(-x/y))
    }
}
